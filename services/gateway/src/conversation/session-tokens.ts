import type { ContextBase, SessionMeta } from "@loupe/session-store";

/**
 * Tokens the runtime's context holds now: system and tools, the note it swapped in at its last Compact,
 * and every turn after that Compact's watermark (all turns when it never compacted).
 */
export function sessionTokens(meta: SessionMeta, turnTokensTally: number, base: ContextBase | undefined): number {
  return meta.prefixTokens + (base?.noteTokens ?? 0) + Math.max(0, turnTokensTally - (base?.turnTokens ?? 0));
}
