import { AppError } from "@loupe/errors";
import { formatNumber } from "../format-number.js";
import { countCodePoints, hasMoreCodePointsThan, indexAfterCodePoints, indexBeforeLastCodePoints } from "./code-points.js";

/**
 * Version of the cut's output format (`cutNotice`). Bump it whenever the
 * notice text or the cut points change: vendors' prompt caches hold the bytes
 * of earlier cuts, and a cut must give the same bytes on every call.
 */
export const CUT_NOTICE_VERSION = 1;

/** keep_limit_chars must exceed keep_head_chars + keep_tail_chars by more than this. */
export const CUT_MIN_OMITTED_CHARS = 200;

/**
 * A source's (app's) rule for the History cut. All counts are Unicode code
 * points ("characters"), not UTF-16 units or bytes.
 */
export interface CutRule {
  /** Texts longer than this are cut; 0 turns the cut off. */
  keepLimitChars: number;
  /** Characters kept from the start. */
  keepHeadChars: number;
  /** Characters kept from the end. */
  keepTailChars: number;
  /** Tool names whose results may be cut, matched whole and case-insensitively. */
  keepTools: readonly string[];
}

/** Off by default (limit 0); head and tail 3,000 characters; shell tools only ("read" deliberately not). */
export const DEFAULT_CUT_RULE: CutRule = Object.freeze({
  keepLimitChars: 0,
  keepHeadChars: 3000,
  keepTailChars: 3000,
  keepTools: Object.freeze(["bash", "shell", "execute"]),
});

/** The outcome of `cutHeadTail`. */
export interface CutResult {
  text: string;
  cut: boolean;
  /** Code points removed (0 when not cut). */
  removedChars: number;
}

/**
 * The line that replaces the removed middle, version 1 (`CUT_NOTICE_VERSION`):
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
  for (const [name, value] of [["keep_limit_chars", rule.keepLimitChars], ["keep_head_chars", rule.keepHeadChars], ["keep_tail_chars", rule.keepTailChars]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new AppError("invalid_argument", `${name} must be a whole number of characters, 0 or more [${name}=${String(value)}]`);
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
 * the limit is > 0), keeps its first keepHeadChars and last keepTailChars code
 * points with `cutNotice(removed)` between them; otherwise returns it
 * unchanged. Cut points fall between code points, so a surrogate pair is never
 * split. Pure and deterministic, and idempotent: the output is shorter than
 * the limit (validation guarantees head + tail + notice < limit), so cutting
 * it again with the same rule returns it unchanged — the same result gives the
 * same bytes on every call, which keeps vendors' prompt caches valid. Does not
 * look at the tool name: check `isEligible` first.
 * Throws AppError "invalid_argument" for an invalid rule (`validateCutRule`).
 */
export function cutHeadTail(text: string, rule: CutRule): CutResult {
  validateCutRule(rule);
  if (rule.keepLimitChars === 0 || !hasMoreCodePointsThan(text, rule.keepLimitChars)) return { text, cut: false, removedChars: 0 };
  const headEnd = indexAfterCodePoints(text, rule.keepHeadChars);
  const tailStart = indexBeforeLastCodePoints(text, rule.keepTailChars);
  const removedChars = countCodePoints(text.slice(headEnd, tailStart));
  return { text: text.slice(0, headEnd) + cutNotice(removedChars) + text.slice(tailStart), cut: true, removedChars };
}
