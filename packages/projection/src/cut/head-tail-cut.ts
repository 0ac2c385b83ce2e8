import { AppError } from "@loupe/errors";
import { formatNumber } from "../format-number.js";
import { countCodePoints, hasMoreCodePointsThan, indexAfterCodePoints, indexBeforeLastCodePoints } from "./code-points.js";
import type { CutResult, CutRule } from "./cut-rule.js";
import { cutWholeLines } from "./line-cut.js";

export type { CutResult, CutRule } from "./cut-rule.js";

/**
 * Version of the cut's output (its cut points and notice) that new results get. Every version stays
 * available (`cutHeadTail`'s `version`): vendors' prompt caches hold the bytes of earlier cuts, so a
 * result first cut by one version is cut by it for as long as its pin lives. Version 1 cuts by
 * characters with `cutNotice`; version 2 keeps whole lines and names what a runtime had already
 * removed (`cutWholeLines`); version 3 also recognises Claude Code's marker in a failed command's
 * output and Gemini CLI 0.61's notices (what they removed, where they saved the whole); version 4's
 * notice also names the saved original when there is one (`; whole output: recover {"result_id":…}`),
 * so nothing a cut removes is lost.
 */
export const CUT_NOTICE_VERSION = 4;

/** The cut versions `cutHeadTail` knows. */
export const CUT_VERSIONS: readonly number[] = [1, 2, 3, 4];

/** keep_limit_chars must exceed keep_head_chars + keep_tail_chars by more than this. */
export const CUT_MIN_OMITTED_CHARS = 200;

/** Off by default (limit 0); head and tail 3,000 characters; shell tools only ("read" deliberately not). */
export const DEFAULT_CUT_RULE: CutRule = Object.freeze({
  keepLimitChars: 0,
  keepHeadChars: 3000,
  keepTailChars: 3000,
  keepTools: Object.freeze(["bash", "shell", "execute"]),
});

/**
 * The line that replaces the removed middle in cut version 1:
 * `"\n[loupe: 12,345 characters omitted]\n"` — a newline, then `[loupe: `, the
 * number of removed code points with "," thousands separators, ` characters
 * omitted]`, and a newline.
 */
export function cutNotice(removedChars: number): string {
  return `\n[loupe: ${formatNumber(removedChars)} characters omitted]\n`;
}

/**
 * Checks a cut rule. Throws AppError "invalid_argument" when a count is not a
 * whole number ≥ 0, when keepTools is not a list of strings, or when the cut is
 * on (limit > 0) and keep_limit_chars ≤ keep_head_chars + keep_tail_chars + 200:
 * such a cut would remove (almost) nothing and its output could be cut again.
 */
export function validateCutRule(rule: CutRule): void {
  for (const [name, value] of [
    ["keep_limit_chars", rule.keepLimitChars],
    ["keep_head_chars", rule.keepHeadChars],
    ["keep_tail_chars", rule.keepTailChars],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new AppError("invalid_argument", `${name} must be a whole number of characters, 0 or more [${name}=${String(value)}]`);
  }
  if (!Array.isArray(rule.keepTools) || !rule.keepTools.every((tool) => typeof tool === "string")) {
    throw new AppError("invalid_argument", "keep_tools must be a list of tool names");
  }
  if (rule.keepLimitChars === 0) return;
  if (rule.keepLimitChars <= rule.keepHeadChars + rule.keepTailChars + CUT_MIN_OMITTED_CHARS) {
    throw new AppError(
      "invalid_argument",
      `keep_limit_chars must exceed keep_head_chars + keep_tail_chars + ${CUT_MIN_OMITTED_CHARS}, so that a cut removes something and its output is never cut again [keep_limit_chars=${rule.keepLimitChars}, keep_head_chars=${rule.keepHeadChars}, keep_tail_chars=${rule.keepTailChars}]`,
    );
  }
}

/**
 * Whether a tool result may be cut: the cut is on (limit > 0), `toolName` is
 * one of keepTools (whole name, case-insensitive: "Bash" matches "bash",
 * "execute_bash" does not), and the text has more than keepLimitChars code
 * points. Reads at most about 2 × keepLimitChars of the text.
 */
export function isEligible(toolName: string, text: string, rule: CutRule): boolean {
  if (rule.keepLimitChars <= 0) return false;
  const name = toolName.toLowerCase();
  if (!rule.keepTools.some((tool) => tool.toLowerCase() === name)) return false;
  return hasMoreCodePointsThan(text, rule.keepLimitChars);
}

/**
 * The History cut: when `text` has more than keepLimitChars code points (and
 * the limit is > 0), keeps its head and tail with a notice between them, as
 * cut `version` (default `CUT_NOTICE_VERSION`) does it; otherwise returns it
 * unchanged. Version 1 keeps the first keepHeadChars and last keepTailChars
 * code points with `cutNotice(removed)` between them; versions 2 and 3 are
 * `cutWholeLines`. Cut points fall between code points, so a surrogate pair
 * is never split. Pure and deterministic, and idempotent: the output is not
 * longer than the limit, so cutting it again with the same rule returns it
 * unchanged — the same result gives the same bytes on every call, which keeps
 * vendors' prompt caches valid. Does not look at the tool name: check
 * `isEligible` first.
 * Throws AppError "invalid_argument" for an invalid rule (`validateCutRule`) or an unknown version.
 */
export function cutHeadTail(text: string, rule: CutRule, version: number = CUT_NOTICE_VERSION, savedResultId = ""): CutResult {
  validateCutRule(rule);
  if (!CUT_VERSIONS.includes(version)) throw new AppError("invalid_argument", `unknown cut version [version=${String(version)}]`);
  if (rule.keepLimitChars === 0 || !hasMoreCodePointsThan(text, rule.keepLimitChars)) return { text, cut: false, removedChars: 0 };
  if (version >= 2) return cutWholeLines(text, rule, version, version >= 4 ? savedResultId : "");
  const headEnd = indexAfterCodePoints(text, rule.keepHeadChars);
  const tailStart = indexBeforeLastCodePoints(text, rule.keepTailChars);
  const removedChars = countCodePoints(text.slice(headEnd, tailStart));
  return { text: text.slice(0, headEnd) + cutNotice(removedChars) + text.slice(tailStart), cut: true, removedChars };
}
