import type { Ledger, LedgerEntry } from "@loupe/ledger";
import { PROJECTOR_VERSION } from "@loupe/projection";
import type { Logger } from "@loupe/runtime";
import type { Projected } from "../project/project-deps.js";

/** What the gateway records in the ledger, one function per kind of operation. */
export interface LedgerRecorder {
  projection(tenant: string, projected: Projected): void;
  recovery(tenant: string, entry: { source: string; sessionId: string; resultId: string; tokens: number; detail: string }): void;
  cut(
    tenant: string,
    entry: { source: string; sessionId: string; ruleVersion: number; cutResults: number; savedTokens: number; tokensBefore: number; detail: string },
  ): void;
  compaction(
    tenant: string,
    entry: { source: string; sessionId: string; watermarkSeq: number; tokensBefore: number; tokensAfter: number; detail: string },
  ): void;
  deletion(tenant: string, entry: { sessionId: string; resultId: string; detail: string }): void;
}

/**
 * Records what Loupe did to each tenant's context in `ledger`, in the background: an entry never
 * delays or fails the call it describes (a failed append is logged). Each entry carries the handle
 * back: a Recover request for a saved original, a ReadHistory request for compacted turns.
 */
export function createLedgerRecorder(ledger: Ledger, logger: Logger, now: () => number = Date.now): LedgerRecorder {
  const append = (tenant: string, entry: Omit<LedgerEntry, "timeMs">): void => {
    void ledger.append(tenant, { timeMs: now(), ...entry }).catch((error: unknown) => logger.warn("ledger entry not recorded", { kind: entry.kind, error }));
  };
  const blank = { source: "", sessionId: "", resultId: "", ruleVersion: "", projectorVersion: "", tokensBefore: 0, tokensAfter: 0, handleJson: "", detail: "" };
  const recoverHandle = (resultId: string): string => (resultId === "" ? "" : JSON.stringify({ result_id: resultId }));
  return {
    projection(tenant, { saved, ruleVersion, omissions, result }) {
      const what = result.path === "" ? result.toolName : `${result.toolName} ${result.path}`;
      append(tenant, {
        ...blank,
        kind: "projection",
        source: result.source,
        sessionId: result.sessionId,
        resultId: result.resultId,
        ruleVersion: String(ruleVersion),
        projectorVersion: PROJECTOR_VERSION,
        tokensBefore: result.originalTokens,
        tokensAfter: result.projectedTokens,
        handleJson: recoverHandle(result.resultId),
        detail: `${what} (${result.kind}): ${omissions === 0 ? "whole" : `${String(omissions)} omission${omissions === 1 ? "" : "s"}`}${saved ? "" : ", not saved"}`,
      });
    },
    recovery(tenant, entry) {
      append(tenant, { ...blank, kind: "recovery", ...entry, tokensAfter: entry.tokens, handleJson: recoverHandle(entry.resultId) });
    },
    cut(tenant, entry) {
      append(tenant, {
        ...blank,
        kind: "cut",
        source: entry.source,
        sessionId: entry.sessionId,
        ruleVersion: String(entry.ruleVersion),
        projectorVersion: PROJECTOR_VERSION,
        tokensBefore: entry.tokensBefore,
        tokensAfter: Math.max(0, entry.tokensBefore - entry.savedTokens),
        detail: entry.detail,
      });
    },
    compaction(tenant, entry) {
      append(tenant, {
        ...blank,
        kind: "compaction",
        source: entry.source,
        sessionId: entry.sessionId,
        tokensBefore: entry.tokensBefore,
        tokensAfter: entry.tokensAfter,
        // The compacted turns stay readable by address: ReadHistory from turn 1 through the watermark.
        handleJson: entry.watermarkSeq === 0 ? "" : JSON.stringify({ session_id: entry.sessionId, start_seq: 1, end_seq: entry.watermarkSeq }),
        detail: entry.detail,
      });
    },
    deletion(tenant, entry) {
      append(tenant, { ...blank, kind: "deletion", sessionId: entry.sessionId, resultId: entry.resultId, detail: entry.detail });
    },
  };
}
