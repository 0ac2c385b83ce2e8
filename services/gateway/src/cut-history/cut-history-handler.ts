import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import type { TokenCounter } from "@loupe/projection";
import type { CutHistoryRequest, CutHistoryResponseSchema } from "@loupe/proto";
import { requireSource } from "../rules-handlers.js";
import type { SourceRules } from "../source-rules.js";
import { cutHistory } from "./cut-history.js";

/**
 * CutHistory for one request: the source's rule decides; a rule with the cut
 * off (the default) forwards the history byte-identical.
 * @throws AppError `invalid_argument`, `unimplemented` (mode "project" for histories)
 */
export async function cutHistoryFor(request: Pick<CutHistoryRequest, "source" | "format" | "historyJson">, tenant: string, rules: SourceRules, counter: TokenCounter): Promise<MessageInitShape<typeof CutHistoryResponseSchema>> {
  const rule = await rules.get(tenant, requireSource(request.source));
  if (rule.mode === "project" && rule.keepLimitChars > 0) throw new AppError("unimplemented", `history projection (mode "project") is not available yet; set mode "cut" [source=${request.source}]`);
  const cut = cutHistory(request.format, request.historyJson, { keepLimitChars: rule.keepLimitChars, keepHeadChars: rule.keepHeadChars, keepTailChars: rule.keepTailChars, keepTools: rule.keepTools }, counter);
  return { historyJson: cut.historyJson, cutResults: cut.cutResults, savedTokens: cut.savedTokens };
}
