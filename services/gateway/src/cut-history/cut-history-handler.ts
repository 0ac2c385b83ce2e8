import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import type { TokenCounter } from "@loupe/projection";
import type { CutHistoryRequest, CutHistoryResponseSchema } from "@loupe/proto";
import { requireSource } from "../rules-handlers.js";
import type { SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";
import { cutParsedHistory, parseHistory } from "./cut-history.js";
import { pinnedRules } from "./rule-pins.js";

/**
 * CutHistory for one request: the source's rule decides; a rule with the cut
 * off (the default) forwards the history byte-identical.
 * @throws AppError `invalid_argument`, `unimplemented` (mode "project" for histories)
 */
export async function cutHistoryFor(
  request: Pick<CutHistoryRequest, "source" | "format" | "historyJson">,
  tenant: string,
  rules: SourceRules,
  state: StateStore,
  counter: TokenCounter,
): Promise<MessageInitShape<typeof CutHistoryResponseSchema>> {
  const source = requireSource(request.source);
  const rule = await rules.get(tenant, source);
  // A source whose rule never changed has never cut anything: forward untouched without looking further.
  if (rule.version === 0) return { historyJson: request.historyJson, cutResults: 0, savedTokens: 0 };
  if (rule.mode === "project" && rule.keepLimitChars > 0) throw new AppError("unimplemented", `history projection (mode "project") is not available yet; set mode "cut" [source=${source}]`);
  const parsed = parseHistory(request.format, request.historyJson);
  const pins = await pinnedRules(state, rules, tenant, source, rule, parsed.results);
  // Results too short to pin are too short to cut.
  const off = { keepLimitChars: 0, keepHeadChars: 0, keepTailChars: 0, keepTools: [] };
  const cut = cutParsedHistory(parsed, request.historyJson, (result) => pins.get(result) ?? off, counter);
  return { historyJson: cut.historyJson, cutResults: cut.cutResults, savedTokens: cut.savedTokens };
}
