import { createHash } from "node:crypto";
import type { CutRule } from "@loupe/projection";
import { stateKey, type StateStore } from "@loupe/state-store";
import type { SourceRule, SourceRules } from "@loupe/rules";
import type { HistoryToolResult } from "./tool-results.js";

// Shorter results are never cut (a limit is always larger than head + tail + 200): no pin needed.
const SHORTEST_CUTTABLE = 201;
/** How long a result stays pinned to the rule version it was first seen under. */
export const PIN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** The history-cut fields of a rule. */
export const cutRuleOf = (rule: SourceRule): CutRule => ({ keepLimitChars: rule.keepLimitChars, keepHeadChars: rule.keepHeadChars, keepTailChars: rule.keepTailChars, keepTools: rule.keepTools });

function identity(result: HistoryToolResult): string {
  return createHash("sha256").update(`${result.toolName}\u0000${result.text}`).digest("base64url").slice(0, 32);
}

/**
 * The rule each tool result is cut by: the version of the source's rule in
 * force when the result was first seen. A rule change therefore applies only
 * to results first seen after it, so a live session's history keeps the same
 * bytes (and its prompt cache) request after request.
 */
export async function pinnedRules(state: StateStore, rules: SourceRules, tenant: string, source: string, current: SourceRule, results: readonly HistoryToolResult[]): Promise<Map<HistoryToolResult, SourceRule>> {
  const pinned = new Map<HistoryToolResult, SourceRule>();
  const snapshots = new Map<number, SourceRule>([[current.version, current]]);
  for (const result of results) {
    if (result.text.length < SHORTEST_CUTTABLE) continue;
    const key = stateKey(tenant, "cut-pin", source, identity(result));
    const seen = await state.get(key);
    let version = seen === undefined ? current.version : Number(seen);
    if (seen === undefined) {
      // First sighting: pin to the current version (another replica may have pinned it a moment earlier).
      const claimed = await state.compareAndSet(key, undefined, String(current.version), { ttlMs: PIN_TTL_MS });
      if (!claimed) version = Number((await state.get(key)) ?? current.version);
    }
    if (!snapshots.has(version)) {
      const snapshot = await rules.atVersion(tenant, source, version);
      snapshots.set(version, snapshot ?? current);
    }
    pinned.set(result, snapshots.get(version) ?? current);
  }
  return pinned;
}
