import type { CutRule } from "@loupe/projection";
import { stateKey, type StateStore } from "@loupe/state-store";

/** How many tool names an app's record keeps (most recent first). */
export const MAX_RECENT_TOOLS = 50;
/** How long an app's record of tool names lives after its last change. */
export const RECENT_TOOLS_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const keyOf = (tenant: string, source: string): string => stateKey(tenant, "recent-tools", source);

/** The tool names seen in an app's recent histories (most recent first), or undefined when none was seen. */
export async function readRecentTools(state: StateStore, tenant: string, source: string): Promise<string[] | undefined> {
  const raw = await state.get(keyOf(tenant, source));
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === "string") : undefined;
  } catch {
    // A record this version cannot read is as good as none: the next request writes a new one.
    return undefined;
  }
}

/**
 * Records the tool names of one history (names with results, in order) for the app; writes only
 * when the record changes, so a session that keeps using the same tools costs one read per request.
 */
export async function recordRecentTools(state: StateStore, tenant: string, source: string, names: readonly string[]): Promise<void> {
  const seen = [...new Set(names.filter((name) => name !== ""))].reverse();
  if (seen.length === 0) return;
  const stored = (await readRecentTools(state, tenant, source)) ?? [];
  const next = [...seen, ...stored.filter((name) => !seen.includes(name))].slice(0, MAX_RECENT_TOOLS);
  if (next.length === stored.length && next.every((name, index) => name === stored[index])) return;
  await state.set(keyOf(tenant, source), JSON.stringify(next), { ttlMs: RECENT_TOOLS_TTL_MS });
}

/** Whether a rule's keep_tools can ever cut anything of the tools seen, and a warning when it cannot. */
export interface KeepToolsCheck {
  /** Unset when no tool was seen. */
  matched?: boolean;
  /** Empty unless the cut is on and keep_tools names none of the tools seen. */
  warning: string;
}

/** Checks keep_tools (whole names, case-insensitive, as the cut matches them) against tool names seen. */
export function checkKeepTools(rule: CutRule, tools: readonly string[] | undefined): KeepToolsCheck {
  if (tools === undefined || tools.length === 0) return { warning: "" };
  const keep = new Set(rule.keepTools.map((tool) => tool.toLowerCase()));
  const matched = tools.some((tool) => keep.has(tool.toLowerCase()));
  if (matched || rule.keepLimitChars === 0) return { matched, warning: "" };
  const shown = tools.slice(0, 12).join(", ") + (tools.length > 12 ? ", …" : "");
  return {
    matched,
    warning: `keep_tools (${rule.keepTools.join(", ") || "none"}) names none of this app's tools (${shown}): nothing is cut; add the shell tool's name to keep_tools`,
  };
}
