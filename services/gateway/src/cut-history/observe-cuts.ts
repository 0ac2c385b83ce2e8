import { countMetric } from "@loupe/telemetry";
import type { LedgerRecorder } from "../ledger/record-ledger.js";
import type { CutObserver } from "./cut-history-handler.js";

/**
 * What every history cut — CutHistory and the vendor proxy alike — reports: the metrics, and a ledger
 * entry when it cut a result or replaced an image.
 */
export function observeCuts(recorder: LedgerRecorder | undefined): CutObserver {
  return (tenant, cut) => {
    countMetric("loupe.history_cuts", { cut: cut.cutResults > 0 });
    countMetric("loupe.history_cut.saved_tokens", {}, cut.savedTokens);
    if (cut.cutResults === 0 && cut.replacedImages === 0) return;
    recorder?.cut(tenant, {
      source: cut.source,
      sessionId: cut.sessionId,
      ruleVersion: cut.ruleVersion,
      cutResults: cut.cutResults,
      savedTokens: cut.savedTokens,
      tokensBefore: cut.tokensBefore,
      detail: `${String(cut.cutResults)} tool result(s) cut to head and tail, ${String(cut.replacedImages)} image(s) replaced`,
    });
  };
}
