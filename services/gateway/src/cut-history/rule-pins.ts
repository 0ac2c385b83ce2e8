import { createHash } from "node:crypto";
import { CUT_NOTICE_VERSION, isEligibleForCut, type CutRule } from "@loupe/projection";
import { stateKey, type StateStore } from "@loupe/state-store";
import type { SourceRule, SourceRules } from "@loupe/rules";
import type { HistoryToolResult } from "./tool-results.js";

// Shorter results are never cut (a limit is always larger than head + tail + 200): no pin needed.
const SHORTEST_CUTTABLE = 201;
/** How long a result stays pinned to the rule version it was first seen under. */
export const PIN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** The history-cut fields of a rule. */
export const cutRuleOf = (rule: SourceRule): CutRule => ({
  keepLimitChars: rule.keepLimitChars,
  keepHeadChars: rule.keepHeadChars,
  keepTailChars: rule.keepTailChars,
  keepTools: rule.keepTools,
});

/** How a result is cut on every request: fixed when it is first seen. */
export interface ResultPin {
  /** The source's rule as it was when the result was first seen. */
  rule: SourceRule;
  /** The cut version (`cutHeadTail`'s) the result is cut with. */
  cutVersion: number;
  /** Mode "project": the first view sent the first time, sent again as it is. */
  view?: string;
  /** The whole text saved when the result was first cut (cut version 4 names it); "" when none was. */
  savedResultId: string;
  /** The state key of the pin (to record the view). */
  key: string;
}

interface StoredPin {
  rule: number;
  cut: number;
  view?: string;
  /** The saved original's result id. */
  id?: string;
}

/** A pin as stored; pins written before cut versions existed hold the rule version alone (cut version 1). */
function parsePin(raw: string): StoredPin | undefined {
  if (/^\d+$/.test(raw)) return { rule: Number(raw), cut: 1 };
  try {
    const parsed = JSON.parse(raw) as Partial<StoredPin>;
    if (typeof parsed.rule !== "number" || typeof parsed.cut !== "number") return undefined;
    return {
      rule: parsed.rule,
      cut: parsed.cut,
      ...(typeof parsed.view === "string" ? { view: parsed.view } : {}),
      ...(typeof parsed.id === "string" ? { id: parsed.id } : {}),
    };
  } catch {
    // Unreadable: treated as a new sighting, which pins it afresh.
    return undefined;
  }
}

function identity(result: HistoryToolResult): string {
  return createHash("sha256").update(`${result.toolName}\u0000${result.text}`).digest("base64url").slice(0, 32);
}

/**
 * The pin of each tool result: the version of the source's rule in force when
 * the result was first seen, the cut version of that moment and, in mode
 * "project", the first view it was given. A change of rule, of the cut or of
 * the projectors therefore applies only to results first seen after it, so a
 * live session's history keeps the same bytes (and its prompt cache) request
 * after request.
 */
export async function pinnedRules(
  state: StateStore,
  rules: SourceRules,
  tenant: string,
  source: string,
  current: SourceRule,
  results: readonly HistoryToolResult[],
  saveText?: (result: { tenant: string; source: string; toolName: string; text: string }) => Promise<string>,
): Promise<Map<HistoryToolResult, ResultPin>> {
  const pinned = new Map<HistoryToolResult, ResultPin>();
  const snapshots = new Map<number, SourceRule>([[current.version, current]]);
  const fresh: StoredPin = { rule: current.version, cut: CUT_NOTICE_VERSION };
  for (const result of results) {
    if (result.text.length < SHORTEST_CUTTABLE) continue;
    const key = stateKey(tenant, "cut-pin", source, identity(result));
    const seen = await state.get(key);
    let stored = seen === undefined ? undefined : parsePin(seen);
    if (stored === undefined) {
      // First sighting. A result this cut shortens is saved whole first (a replica seeing it at the same
      // moment saves the same bytes under the same id), so the pin — and every later request — names it.
      const cuts = saveText !== undefined && current.mode !== "project" && isEligibleForCut(result.toolName, result.text, cutRuleOf(current));
      const id = cuts ? await saveText({ tenant, source, toolName: result.toolName, text: result.text }).catch(() => "") : "";
      const first: StoredPin = id === "" ? fresh : { ...fresh, id };
      // Pin it now (another replica may have pinned it a moment earlier: its pin wins).
      const claimed = await state.compareAndSet(key, seen, JSON.stringify(first), { ttlMs: PIN_TTL_MS });
      stored = claimed ? first : (parsePin((await state.get(key)) ?? "") ?? first);
    }
    if (!snapshots.has(stored.rule)) snapshots.set(stored.rule, (await rules.atVersion(tenant, source, stored.rule)) ?? current);
    const rule = snapshots.get(stored.rule) ?? current;
    pinned.set(result, { rule, cutVersion: stored.cut, key, savedResultId: stored.id ?? "", ...(stored.view === undefined ? {} : { view: stored.view }) });
  }
  return pinned;
}

/** Records the first view a pinned result was given (mode "project"), so later requests send the same bytes. */
export async function recordPinnedView(state: StateStore, pin: ResultPin, view: string): Promise<void> {
  const value: StoredPin = { rule: pin.rule.version, cut: pin.cutVersion, view, ...(pin.savedResultId === "" ? {} : { id: pin.savedResultId }) };
  await state.set(pin.key, JSON.stringify(value), { ttlMs: PIN_TTL_MS });
}
