import type { MessageInitShape } from "@bufbuild/protobuf";
import { isEligibleForCut, type TokenCounter } from "@loupe/projection";
import type { CutHistoryRequest, CutHistoryResponseSchema } from "@loupe/proto";
import { requireSource } from "../rules-handlers.js";
import type { SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";
import { cutParsedHistory, parseHistory } from "./cut-history.js";
import type { HistoryProjector } from "./history-projector.js";
import { cutRuleOf, pinnedRules } from "./rule-pins.js";
import type { HistoryToolResult } from "./tool-results.js";

/**
 * CutHistory for one request: the source's rule decides; a rule with the cut
 * off (the default) forwards the history byte-identical.
 * Mode "project" replaces each eligible result by Loupe's first view of it (saved, with continuations)
 * through `projectText`; a result that could not be saved is cut instead.
 * @throws AppError `invalid_argument`
 */
export async function cutHistoryFor(
  request: Pick<CutHistoryRequest, "source" | "format" | "historyJson">,
  tenant: string,
  rules: SourceRules,
  state: StateStore,
  counter: TokenCounter,
  projectText?: HistoryProjector,
): Promise<MessageInitShape<typeof CutHistoryResponseSchema>> {
  const source = requireSource(request.source);
  const rule = await rules.get(tenant, source);
  // A source whose rule never changed has never cut anything: forward untouched without looking further.
  if (rule.version === 0) return { historyJson: request.historyJson, cutResults: 0, savedTokens: 0 };
  const parsed = parseHistory(request.format, request.historyJson);
  const pins = await pinnedRules(state, rules, tenant, source, rule, parsed.results);
  // Results too short to pin are too short to cut.
  const off = { keepLimitChars: 0, keepHeadChars: 0, keepTailChars: 0, keepTools: [] };
  const projected = new Set<HistoryToolResult>();
  let projectedSaved = 0;
  for (const result of parsed.results) {
    const pinned = pins.get(result);
    if (projectText === undefined || pinned?.mode !== "project" || pinned.keepLimitChars === 0 || !isEligibleForCut(result.toolName, result.text, cutRuleOf(pinned))) continue;
    const view = await projectText({ source, toolName: result.toolName, text: result.text, rule: pinned });
    if (view === undefined || view === result.text) continue;
    projectedSaved += Math.max(0, counter.count(result.text) - counter.count(view));
    result.replace(view);
    projected.add(result);
  }
  const cut = cutParsedHistory(
    parsed,
    request.historyJson,
    (result) => {
      const pinned = pins.get(result);
      return pinned === undefined || projected.has(result) ? off : cutRuleOf(pinned);
    },
    counter,
  );
  if (projected.size === 0) return { historyJson: cut.historyJson, cutResults: cut.cutResults, savedTokens: cut.savedTokens };
  const historyJson = cut.cutResults > 0 ? cut.historyJson : new TextEncoder().encode(JSON.stringify(parsed.body));
  return { historyJson, cutResults: cut.cutResults + projected.size, savedTokens: cut.savedTokens + projectedSaved };
}
