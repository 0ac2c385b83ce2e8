import { AppError } from "@loupe/errors";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { isEligibleForCut, type TokenCounter } from "@loupe/projection";
import type { CutHistoryRequest, CutHistoryResponseSchema } from "@loupe/proto";
import { requireSource } from "../rules-handlers.js";
import type { SourceRule, SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";
import { cutParsedHistory, parseHistory, type ParsedHistory, type ResultCut } from "./cut-history.js";
import { cutImages, type ImageCutDeps } from "./images/cut-images.js";
import type { HistoryProjector } from "./history-projector.js";
import { checkKeepTools, recordRecentTools } from "./recent-tools.js";
import { cutRuleOf, pinnedRules, recordPinnedView, type ResultPin } from "./rule-pins.js";
import type { HistoryToolResult } from "./tool-results.js";

const MAX_SESSION_ID_LENGTH = 256;

// Results too short to pin are too short to cut.
const OFF: ResultCut = { rule: { keepLimitChars: 0, keepHeadChars: 0, keepTailChars: 0, keepTools: [] }, version: 1 };

/** Mode "project": each eligible result replaced by its first view — the pinned one, else a new one (then pinned). */
async function projectResults(
  results: readonly HistoryToolResult[],
  pins: Map<HistoryToolResult, ResultPin>,
  tenant: string,
  source: string,
  state: StateStore,
  counter: TokenCounter,
  projectText: HistoryProjector,
  model: string,
): Promise<{ projected: Set<HistoryToolResult>; saved: number; before: number }> {
  const projected = new Set<HistoryToolResult>();
  let saved = 0;
  let before = 0;
  for (const result of results) {
    const pin = pins.get(result);
    if (pin?.rule.mode !== "project" || pin.rule.keepLimitChars === 0 || !isEligibleForCut(result.toolName, result.text, cutRuleOf(pin.rule))) continue;
    let view = pin.view;
    if (view === undefined) {
      view = await projectText({ tenant, source, toolName: result.toolName, text: result.text, intent: result.intent, model, rule: pin.rule });
      if (view === undefined || view === result.text) continue;
      await recordPinnedView(state, pin, view);
    }
    const tokens = counter.count(result.text);
    before += tokens;
    saved += Math.max(0, tokens - counter.count(view));
    result.replace(view);
    projected.add(result);
  }
  return { projected, saved, before };
}

/**
 * CutHistory for one request: the source's rule decides; a rule with the cut
 * off (the default) forwards the history byte-identical. Each result is cut as
 * it was the first time it was seen (its pin: rule version, cut version and,
 * in mode "project", the first view sent), so a history already cut keeps its
 * bytes whatever changes later. Mode "project" replaces each eligible result
 * by Loupe's first view of it (saved, with continuations) through
 * `projectText`; a result that could not be saved is cut instead. The tool
 * names of the history are recorded for the app, and the answer warns when
 * keep_tools names none of them. With `images`, screenshots are cut too (see cutImages:
 * image_keep_last, image_dedupe).
 * @throws AppError `invalid_argument`
 */
export async function cutHistoryFor(
  request: Pick<CutHistoryRequest, "source" | "format" | "historyJson"> & { sessionId?: string },
  tenant: string,
  rules: SourceRules,
  state: StateStore,
  counter: TokenCounter,
  projectText?: HistoryProjector,
  images?: ImageCutDeps,
  observe?: CutObserver,
): Promise<MessageInitShape<typeof CutHistoryResponseSchema>> {
  const source = requireSource(request.source);
  if ((request.sessionId ?? "").length > MAX_SESSION_ID_LENGTH)
    throw new AppError("invalid_argument", `session_id longer than ${String(MAX_SESSION_ID_LENGTH)} characters`);
  const rule = await rules.get(tenant, source);
  const seen = { source, sessionId: request.sessionId ?? "", ruleVersion: rule.version };
  // A source whose rule never changed has never cut anything: forward untouched without looking further.
  if (rule.version === 0) {
    observe?.(tenant, { ...seen, cutResults: 0, savedTokens: 0, tokensBefore: 0, replacedImages: 0 });
    return { historyJson: request.historyJson, cutResults: 0, savedTokens: 0 };
  }
  const parsed = parseHistory(request.format, request.historyJson);
  // Images first: the text cuts below then serialise the body with them replaced.
  const replacedImages =
    images === undefined ? 0 : await cutImages(request.format, parsed.body, rule, { tenant, source, sessionId: request.sessionId ?? "" }, images);
  const { tokensBefore, ...answer } = await cutTexts(request, parsed, rule, {
    tenant,
    source,
    state,
    rules,
    counter,
    projectText,
    saveText: images?.saveText?.bind(images),
  });
  observe?.(tenant, { ...seen, cutResults: answer.cutResults, savedTokens: answer.savedTokens, tokensBefore, replacedImages });
  if (replacedImages === 0) return answer;
  const cutAnything = answer.cutResults > 0;
  return { ...answer, historyJson: cutAnything ? answer.historyJson : new TextEncoder().encode(JSON.stringify(parsed.body)), replacedImages };
}

/** What one history cut did (for metrics and the ledger): told by {@link cutHistoryFor} on every request it answers. */
export interface CutObservation {
  source: string;
  sessionId: string;
  ruleVersion: number;
  cutResults: number;
  savedTokens: number;
  /** Tokens of the cut results before the cut. */
  tokensBefore: number;
  replacedImages: number;
}
export type CutObserver = (tenant: string, cut: CutObservation) => void;

interface TextCutContext {
  tenant: string;
  source: string;
  state: StateStore;
  rules: SourceRules;
  counter: TokenCounter;
  projectText: HistoryProjector | undefined;
  /** Saves a result's whole text the first time it is cut (its pin and notice name it). */
  saveText: ImageCutDeps["saveText"] | undefined;
}

/** The model a vendor request names (Anthropic Messages, OpenAI Chat and Responses); "" when none. */
function modelOf(body: unknown): string {
  const model = typeof body === "object" && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === "string" ? model.slice(0, 200) : "";
}

async function cutTexts(
  request: Pick<CutHistoryRequest, "historyJson">,
  parsed: ParsedHistory,
  rule: SourceRule,
  context: TextCutContext,
): Promise<{ historyJson: Uint8Array; cutResults: number; savedTokens: number; tokensBefore: number; warning: string }> {
  const { tenant, source, state, rules, counter, projectText, saveText } = context;
  const toolNames = parsed.results.map((result) => result.toolName);
  await recordRecentTools(state, tenant, source, toolNames);
  const { warning } = checkKeepTools(cutRuleOf(rule), [...new Set(toolNames.filter((name) => name !== ""))]);
  const pins = await pinnedRules(state, rules, tenant, source, rule, parsed.results, saveText);
  const {
    projected,
    saved: projectedSaved,
    before: projectedBefore,
  } = projectText === undefined
    ? { projected: new Set<HistoryToolResult>(), saved: 0, before: 0 }
    : await projectResults(parsed.results, pins, tenant, source, state, counter, projectText, modelOf(parsed.body));
  const cut = cutParsedHistory(
    parsed,
    request.historyJson,
    (result) => {
      const pin = pins.get(result);
      return pin === undefined || projected.has(result) ? OFF : { rule: cutRuleOf(pin.rule), version: pin.cutVersion, savedResultId: pin.savedResultId };
    },
    counter,
  );
  if (projected.size === 0) return { ...cut, warning };
  const historyJson = cut.cutResults > 0 ? cut.historyJson : new TextEncoder().encode(JSON.stringify(parsed.body));
  return {
    historyJson,
    cutResults: cut.cutResults + projected.size,
    savedTokens: cut.savedTokens + projectedSaved,
    tokensBefore: cut.tokensBefore + projectedBefore,
    warning,
  };
}
