import { AppError } from "@loupe/errors";
import { CUT_NOTICE_VERSION, cutHeadTail, isEligibleForCut, type CutRule, type TokenCounter } from "@loupe/projection";
import { HistoryFormat } from "@loupe/proto";
import { geminiToolResults } from "./gemini-tool-results.js";
import { anthropicToolResults, openAiChatToolResults, openAiResponsesToolResults, type HistoryToolResult } from "./tool-results.js";

export type { HistoryToolResult } from "./tool-results.js";

/** What a history cut did. */
export interface HistoryCut {
  /** The history to forward: the input's exact bytes when nothing was cut. */
  historyJson: Uint8Array;
  cutResults: number;
  savedTokens: number;
  /** Tokens of the results it cut, before the cut (0 when nothing was cut). */
  tokensBefore: number;
}

const FINDERS: Record<HistoryFormat, ((body: Record<string, unknown>) => HistoryToolResult[]) | undefined> = {
  [HistoryFormat.UNSPECIFIED]: undefined,
  [HistoryFormat.ANTHROPIC]: anthropicToolResults,
  [HistoryFormat.OPENAI_CHAT]: openAiChatToolResults,
  [HistoryFormat.OPENAI_RESPONSES]: openAiResponsesToolResults,
  [HistoryFormat.GEMINI]: geminiToolResults,
};

/**
 * Cuts every eligible tool result of a vendor request to head + tail with one
 * notice, per the app's rule — a pure function of each result, so the same
 * history gives the same bytes on every call and the vendor's prompt cache
 * keeps hitting. A history with nothing to cut comes back byte-identical.
 * @throws AppError `invalid_argument` (unknown format, not a JSON object)
 */
export function cutHistory(format: HistoryFormat, historyJson: Uint8Array, rule: CutRule, counter: TokenCounter): HistoryCut {
  if (rule.keepLimitChars === 0) return { historyJson, cutResults: 0, savedTokens: 0, tokensBefore: 0 };
  return cutParsedHistory(parseHistory(format, historyJson), historyJson, () => ({ rule, version: CUT_NOTICE_VERSION }), counter);
}

/** The rule a result is cut by, and the cut version (`cutHeadTail`'s) it was first cut with. */
export interface ResultCut {
  rule: CutRule;
  version: number;
  /** The saved original a version-4 notice names ("" or absent: none). */
  savedResultId?: string;
}

/**
 * The cut of a history already parsed (see {@link parseHistory}), each result by
 * the rule and cut version `cutFor` gives it; `historyJson` comes back as it is when nothing was cut.
 */
export function cutParsedHistory(
  parsed: ParsedHistory,
  historyJson: Uint8Array,
  cutFor: (result: HistoryToolResult) => ResultCut,
  counter: TokenCounter,
): HistoryCut {
  let cutResults = 0;
  let savedTokens = 0;
  let tokensBefore = 0;
  for (const result of parsed.results) {
    const { rule: resultRule, version, savedResultId } = cutFor(result);
    if (resultRule.keepLimitChars === 0 || !isEligibleForCut(result.toolName, result.text, resultRule)) continue;
    const cut = cutHeadTail(result.text, resultRule, version, savedResultId ?? "");
    if (!cut.cut) continue;
    const before = counter.count(result.text);
    tokensBefore += before;
    savedTokens += Math.max(0, before - counter.count(cut.text));
    result.replace(cut.text);
    cutResults++;
  }
  if (cutResults === 0) return { historyJson, cutResults: 0, savedTokens: 0, tokensBefore: 0 };
  return { historyJson: new TextEncoder().encode(JSON.stringify(parsed.body)), cutResults, savedTokens, tokensBefore };
}

/** A vendor request body and its tool results (replacing a result's text edits the body). */
export interface ParsedHistory {
  body: Record<string, unknown>;
  results: HistoryToolResult[];
}

/**
 * Parses a vendor request body and finds its tool results.
 * @throws AppError `invalid_argument` (unknown format, not a JSON object)
 */
export function parseHistory(format: HistoryFormat, historyJson: Uint8Array): ParsedHistory {
  const find = FINDERS[format];
  if (!find) throw new AppError("invalid_argument", "format must be anthropic, openai-chat, openai-responses or gemini");
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(historyJson));
  } catch {
    // The parser's message points into bytes the caller sent; the code says enough.
    throw new AppError("invalid_argument", "history_json is not valid UTF-8 JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new AppError("invalid_argument", "history_json must be a JSON object (a request body)");
  return { body: body as Record<string, unknown>, results: find(body as Record<string, unknown>) };
}
