import { formatNumber } from "../format-number.js";
import { countCodePoints, indexAfterCodePoints, indexBeforeLastCodePoints } from "./code-points.js";
import type { CutResult, CutRule } from "./cut-rule.js";
import { findRuntimeTruncation, type RuntimeTruncation } from "./runtime-truncation.js";

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf("\n", from); index >= 0 && index < to; index = text.indexOf("\n", index + 1)) count++;
  return count;
}

/** Where the head ends: after the last newline within the first `keep` code points, unless that loses more than half of them. */
function headEnd(text: string, keep: number): number {
  const window = indexAfterCodePoints(text, keep);
  if (window === 0) return 0;
  const lineEnd = text.lastIndexOf("\n", window - 1) + 1;
  return lineEnd * 2 >= window ? lineEnd : window;
}

/** Where the tail starts: at the first line start within the last `keep` code points, unless that loses more than half of them. */
function tailStart(text: string, keep: number): number {
  const window = indexBeforeLastCodePoints(text, keep);
  if (window >= text.length || text[window - 1] === "\n") return window;
  const newline = text.indexOf("\n", window);
  if (newline < 0) return window;
  return (text.length - (newline + 1)) * 2 >= text.length - window ? newline + 1 : window;
}

/** What the runtime had removed before the cut, as the tail of a notice; "" when it said nothing. */
function runtimeClause(found: RuntimeTruncation | undefined): string {
  if (found === undefined) return "";
  const parts: string[] = [];
  if (found.removedTokens !== undefined) parts.push(`the runtime had already removed about ${formatNumber(found.removedTokens)} tokens`);
  else if (found.removedLines !== undefined) parts.push(`the runtime had already removed ${formatNumber(found.removedLines)} lines`);
  else if (found.removedChars !== undefined) parts.push(`the runtime had already removed ${formatNumber(found.removedChars)} characters`);
  else if (found.removedBytes !== undefined) parts.push(`the runtime had already removed ${formatNumber(found.removedBytes)} bytes`);
  if (found.originalBytes !== undefined) parts.push(`the whole output was ${formatNumber(found.originalBytes)} bytes`);
  if (found.savedPath !== undefined) parts.push(`the runtime saved the whole output to ${found.savedPath}`);
  return parts.length === 0 ? "" : `; ${parts.join("; ")}`;
}

/**
 * The history cut, versions 2 to 4 (`version`; 3 and later also know Claude Code's failed-command marker
 * and Gemini CLI 0.61's notices, see `findRuntimeTruncation`): keeps the first `keepHeadChars` and last `keepTailChars` code points
 * of `text` as whole lines (a line longer than half of either is cut inside, as version 1 does), and
 * puts one notice line between them naming the omitted lines and characters and, when the runtime
 * had already shortened the output (its own notice is in the text), what it had removed and where
 * it saved the whole — keeping the runtime's own notice lines from the middle. The output never has
 * more code points than `keepLimitChars` (optional parts of the notice are left out rather than
 * exceed it), so a second cut with the same rule leaves it unchanged. Pure and deterministic.
 * The caller checks the rule and that `text` is longer than the limit.
 */
export function cutWholeLines(text: string, rule: CutRule, version: number, savedResultId = ""): CutResult {
  const head = headEnd(text, rule.keepHeadChars);
  const tail = Math.max(head, tailStart(text, rule.keepTailChars));
  const found = findRuntimeTruncation(text, version);
  const kept = (found?.markerSpans ?? []).filter((span) => span.start >= head && span.end < tail).map((span) => text.slice(span.start, span.end));
  const removedChars = countCodePoints(text.slice(head, tail));
  const wholeLines = (head === 0 || text[head - 1] === "\n") && (tail === text.length || text[tail - 1] === "\n");
  let base: string;
  if (wholeLines) {
    const first = countNewlines(text, 0, head) + 1;
    const last = first + countNewlines(text, head, tail) - 1;
    const total = countNewlines(text, 0, text.length) + (text.endsWith("\n") ? 0 : 1);
    base = `[loupe: lines ${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(total)} omitted (${formatNumber(removedChars)} characters)`;
  } else {
    base = `[loupe: ${formatNumber(removedChars)} characters omitted`;
  }
  const before = text.slice(0, head) + (wholeLines ? "" : "\n");
  const after = "\n" + text.slice(tail);
  const room = rule.keepLimitChars - countCodePoints(before) - countCodePoints(after);
  // The saved original first (it restores everything), then what a runtime had removed, each only if it fits.
  const saved = savedResultId === "" ? "" : `; whole output: recover ${JSON.stringify({ result_id: savedResultId })}`;
  const withSaved = countCodePoints(base + saved + "]") <= room ? base + saved : base;
  const clause = runtimeClause(found);
  let notice = countCodePoints(withSaved + clause + "]") <= room ? `${withSaved}${clause}]` : `${withSaved}]`;
  const markers = kept.map((line) => line + "\n").join("");
  if (markers !== "" && countCodePoints(markers + notice) <= room) notice = markers + notice;
  return { text: before + notice + after, cut: true, removedChars };
}
