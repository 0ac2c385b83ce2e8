import type { HookRuntime } from "./hook-runtime.js";

/** How many lines (or files, or counts) a Claude Code Grep may return once the hook lifts its own 250-line cut (LOUPE_GREP_LINES). */
export const DEFAULT_GREP_LINES = 10_000;
/** Where Claude Code cuts a Grep whose call names no `head_limit`. */
const CLAUDE_CODE_GREP_LINES = 250;

/**
 * Claude Code's Grep input with a larger `head_limit`, when Claude Code would otherwise cut the
 * search itself: a search whose call set no `head_limit` stops at 250 lines (matching lines, files
 * or counts, by its mode) before any hook sees it, so the post-tool hook would project only those — a
 * match the agent is after further down would be neither in the view nor named by its notices. With
 * `head_limit` lifted to `lines` (0: no limit), the post-tool hook gets the whole search and Loupe's
 * view chooses from all of it, the rest recoverable. Undefined (the input as it is) for other
 * runtimes and tools, a call that chose its own limit, and a `lines` that would not lift it.
 */
export function liftGrepLimit(runtime: HookRuntime, toolName: string, args: Record<string, unknown>, lines: number): Record<string, unknown> | undefined {
  if (runtime !== "claude-code" || toolName !== "Grep") return undefined;
  if (args["head_limit"] !== undefined) return undefined;
  if (lines !== 0 && lines <= CLAUDE_CODE_GREP_LINES) return undefined;
  return { ...args, head_limit: lines };
}

/** LOUPE_GREP_LINES: a whole number ≥ 0 (0: no limit), else {@link DEFAULT_GREP_LINES}. */
export function grepLinesOf(env: NodeJS.ProcessEnv): number {
  const raw = env["LOUPE_GREP_LINES"];
  if (raw === undefined || raw.trim() === "") return DEFAULT_GREP_LINES;
  const value = Number(raw);
  return Number.isSafeInteger(value) && value >= 0 ? value : DEFAULT_GREP_LINES;
}
