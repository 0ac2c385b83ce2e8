import { continuationJson } from "./continuation.js";
import { formatNumber } from "./format-number.js";
import { splitLines } from "./split-lines.js";
import type { TokenCounter } from "./token-counter.js";
import { utf8Length } from "./utf8-length.js";

/** One run of original lines a view left out. */
export interface LineOmission {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** One line a model reads. */
  description: string;
  /** Sent as it is to Recover, returns exactly these lines; "" when nothing was saved. */
  continuationJson: string;
}

/** A first view of a text. */
export interface TextView {
  text: string;
  omissions: LineOmission[];
  /** True when the text already fit and comes back as it was. */
  unchanged: boolean;
}

/** Options for {@link projectHeadTail}. */
export interface HeadTailOptions {
  budgetTokens: number;
  /** Hard cap on the view's UTF-8 bytes. */
  maxViewBytes: number;
  counter: TokenCounter;
  /** The saved result's id; "" when the result could not be saved (no continuation is offered). */
  resultId: string;
  /** Share of the budget for the head (the rest goes to the tail first, then back to the head). Default 0.65. */
  headShare?: number;
}

const DEFAULT_HEAD_SHARE = 0.65;

function notice(startLine: number, endLine: number, totalLines: number, resultId: string): string {
  const range = startLine === endLine ? `line ${formatNumber(startLine)}` : `lines ${formatNumber(startLine)}–${formatNumber(endLine)}`;
  const what = `[loupe] ${range} of ${formatNumber(totalLines)} omitted`;
  if (resultId === "") return `${what}; the full result could not be saved\n`;
  return `${what}; recover with ${continuationJson({ result_id: resultId, start_line: startLine, end_line: endLine })}\n`;
}

/**
 * Keeps whole lines from the head and tail of `text` within the token budget
 * and byte cap, replacing the middle with one notice line that names the
 * omitted range and how to recover it. Text that already fits comes back
 * unchanged. Pure and deterministic; counts tokens only of lines it considers.
 */
export function projectHeadTail(text: string, options: HeadTailOptions): TextView {
  const { budgetTokens, maxViewBytes, counter, resultId } = options;
  if (utf8Length(text) <= maxViewBytes && counter.within(text, budgetTokens) !== false) {
    return { text, omissions: [], unchanged: true };
  }
  const lines = splitLines(text);
  const total = lines.length;
  const widest = notice(total, total, total, resultId);
  const availableTokens = budgetTokens - counter.count(widest);
  const availableBytes = maxViewBytes - utf8Length(widest);
  const tokenCache = new Map<number, number>();
  // A line's tokens when it still fits in `room`, else Infinity (stops early on huge lines).
  const cost = (index: number, room: number): number => {
    const cached = tokenCache.get(index);
    if (cached !== undefined) return cached;
    const counted = counter.within(lines[index] ?? "", Math.max(0, room));
    if (counted === false) return Number.POSITIVE_INFINITY;
    tokenCache.set(index, counted);
    return counted;
  };
  let head = 0;
  let tail = 0;
  let tokens = 0;
  let bytes = 0;
  const take = (index: number, limit: number): boolean => {
    const lineTokens = cost(index, limit - tokens);
    const lineBytes = utf8Length(lines[index] ?? "");
    if (tokens + lineTokens > limit || bytes + lineBytes > availableBytes) return false;
    tokens += lineTokens;
    bytes += lineBytes;
    return true;
  };
  const headLimit = Math.floor(availableTokens * (options.headShare ?? DEFAULT_HEAD_SHARE));
  while (head < total - 1 && take(head, headLimit)) head++;
  while (head + tail < total - 1 && take(total - 1 - tail, availableTokens)) tail++;
  while (head + tail < total - 1 && take(head, availableTokens)) head++;

  // Per-line counts can differ slightly from the count of the joined view: verify and shrink.
  for (;;) {
    const view = assemble(lines, head, tail, resultId);
    if (head + tail === 0 || (counter.within(view.text, budgetTokens) !== false && utf8Length(view.text) <= maxViewBytes)) return view;
    if (tail > 0 && (tail >= head || head === 0)) tail--;
    else head--;
  }
}

function assemble(lines: readonly string[], head: number, tail: number, resultId: string): TextView {
  const total = lines.length;
  const startLine = head + 1;
  const endLine = total - tail;
  const description = notice(startLine, endLine, total, resultId).trimEnd();
  let headText = lines.slice(0, head).join("");
  // A notice is a line of its own even when the kept head does not end in a newline.
  if (headText !== "" && !headText.endsWith("\n")) headText += "\n";
  const text = headText + description + "\n" + lines.slice(total - tail).join("");
  const omission: LineOmission = {
    startLine,
    endLine,
    description,
    continuationJson: resultId === "" ? "" : continuationJson({ result_id: resultId, start_line: startLine, end_line: endLine }),
  };
  return { text, omissions: [omission], unchanged: false };
}
