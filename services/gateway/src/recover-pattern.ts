import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import type { TokenCounter } from "@loupe/projection";
import type { RecoverRequest, RecoverResponseSchema, SearchMatch, SearchRequestSchema, SearchResponse } from "@loupe/proto";
import { MAX_BUDGET_TOKENS } from "@loupe/rules";
import { cursorKind, readCursor, writeCursor } from "./opaque-cursor.js";

type RecoverResponseInit = MessageInitShape<typeof RecoverResponseSchema>;

/** The archive call a pattern recovery needs (ArchiveClient.search). */
export interface PatternSearcher {
  search(tenant: string, request: MessageInitShape<typeof SearchRequestSchema>, signal?: AbortSignal): Promise<SearchResponse>;
}

/** What a pattern recovery needs. */
export interface RecoverPatternDeps {
  archive: PatternSearcher;
  counter: TokenCounter;
  defaultBudgetTokens: number;
}

/** Where a pattern recovery continues; bound to tenant, result and revision. */
interface PatternCursor {
  t: string;
  r: string;
  h: string;
  /** Pattern, context lines, next line to search, matches served before. */
  p: string;
  c: number;
  f: number;
  n: number;
}

// Tokens kept back for the closing note line.
const NOTE_TOKENS = 40;
const MAX_ARCHIVE_MATCHES = 1000;

/** True when `cursor` is a pattern cursor (from a previous pattern answer's next_cursor). */
export function isPatternCursor(cursor: string): boolean {
  return cursorKind(cursor) === "pattern";
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

function decodePatternCursor(cursor: string, tenant: string, resultId: string): PatternCursor {
  const wire = readCursor(cursor, "pattern") as Partial<PatternCursor>;
  if (
    typeof wire.t !== "string" ||
    typeof wire.r !== "string" ||
    typeof wire.h !== "string" ||
    typeof wire.p !== "string" ||
    !isCount(wire.c) ||
    !isCount(wire.f) ||
    !isCount(wire.n)
  ) {
    throw new AppError("invalid_argument", "malformed cursor");
  }
  if (wire.t !== tenant || (resultId !== "" && wire.r !== resultId))
    throw new AppError("invalid_argument", `cursor belongs to another result [result_id=${resultId}]`);
  return { t: wire.t, r: wire.r, h: wire.h, p: wire.p, c: wire.c, f: wire.f, n: wire.n };
}

const encodePatternCursor = (cursor: PatternCursor): string => writeCursor("pattern", { ...cursor });

/** One match's lines, grep style: `N:line` for the match, `N-line` for context, `--` before a gap. */
function renderMatch(match: SearchMatch, printedUpTo: number, nextMatchLine: number): { text: string; lastLine: number } {
  const rows: string[] = [];
  const first = match.line - match.before.length;
  match.before.forEach((text, position) => {
    if (first + position > printedUpTo) rows.push(`${String(first + position)}-${text}`);
  });
  rows.push(`${String(match.line)}:${match.text}`);
  let lastLine = match.line;
  // Context stops before the next match, which prints that line itself.
  for (const text of match.after) {
    if (lastLine + 1 >= nextMatchLine) break;
    lastLine++;
    rows.push(`${String(lastLine)}-${text}`);
  }
  const gap = printedUpTo > 0 && first > printedUpTo + 1 ? "--\n" : "";
  return { text: `${gap}${rows.join("\n")}\n`, lastLine };
}

/** The longest prefix of `text` within `budgetTokens` (for a single match longer than the budget). */
function fitPrefix(text: string, budgetTokens: number, counter: TokenCounter): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (counter.within(`${text.slice(0, middle)}…\n`, budgetTokens) !== false) low = middle;
    else high = middle - 1;
  }
  return `${text.slice(0, Math.max(1, low))}…\n`;
}

/** Renders as many matches as fit `budgetTokens`; at least one (cut when it alone is too long). */
function renderWithin(matches: SearchMatch[], budgetTokens: number, counter: TokenCounter): { text: string; served: number } {
  let text = "";
  let tokens = 0;
  let printedUpTo = 0;
  let served = 0;
  for (const [position, match] of matches.entries()) {
    const chunk = renderMatch(match, printedUpTo, matches[position + 1]?.line ?? Number.MAX_SAFE_INTEGER);
    const chunkTokens = counter.within(chunk.text, budgetTokens - tokens);
    if (chunkTokens === false) break;
    text += chunk.text;
    tokens += chunkTokens;
    printedUpTo = chunk.lastLine;
    served++;
  }
  // Token counts of pieces do not always add up exactly: trim whole matches until the text fits.
  if (served > 1 && counter.within(text, budgetTokens) === false) return renderWithin(matches.slice(0, served - 1), budgetTokens, counter);
  if (served === 0 && matches[0]) return { text: fitPrefix(`${String(matches[0].line)}:${matches[0].text}`, budgetTokens, counter), served: 1 };
  return { text, served };
}

/**
 * Recovers the lines of a saved result that match `request.pattern` (a JavaScript regular expression,
 * case-sensitive; a leading `(?i)` ignores case) with `context_lines` lines around each, rendered grep
 * style within the budget (default `deps.defaultBudgetTokens`): `N:line` for a match, `N-line` for context,
 * `--` between groups that are not adjacent. `matches` lists the matches served, `match_count` counts the
 * matches served by this answer and the pages before it, and `next_cursor` continues from the first match
 * not served or the first line not searched. The archive searches under a deadline (2 s): when it stops
 * there, a last line `[loupe] searched lines a–b …` says so, and the cursor continues from line b + 1. An
 * answer without matches says so in one `[loupe]` line.
 * @throws AppError `invalid_argument` (pattern, cursor), `not_found`, `failed_precondition` (revision differs),
 * `deadline_exceeded` (a single line took the archive's whole deadline)
 */
export async function recoverPattern(request: RecoverRequest, tenant: string, deps: RecoverPatternDeps, signal?: AbortSignal): Promise<RecoverResponseInit> {
  const cursor = request.cursor === "" ? undefined : decodePatternCursor(request.cursor, tenant, request.resultId);
  const resultId = cursor?.r ?? request.resultId;
  const pattern = cursor?.p ?? request.pattern;
  const contextLines = cursor?.c ?? request.contextLines;
  const fromLine = cursor?.f ?? 1;
  const budgetTokens = Math.min(request.budgetTokens === 0 ? deps.defaultBudgetTokens : request.budgetTokens, MAX_BUDGET_TOKENS);
  // Enough matches to fill the budget with short lines, without asking the archive for thousands.
  const maxMatches = Math.max(1, Math.min(MAX_ARCHIVE_MATCHES, Math.ceil(budgetTokens / (4 * (1 + 2 * contextLines)))));
  const answer = await deps.archive.search(tenant, { resultId, pattern, contextLines, maxMatches, fromLine }, signal);
  const record = answer.record;
  if (!record) throw new AppError("internal", "archive search answered without a record");
  if (cursor && cursor.h !== record.revision)
    throw new AppError("failed_precondition", `cursor revision differs from the result [cursor=${cursor.h}, result=${record.revision}]`);
  if (request.expectedRevision !== "" && request.expectedRevision !== record.revision) {
    throw new AppError("failed_precondition", `revision differs [expected=${request.expectedRevision}, actual=${record.revision}]`);
  }
  const rendered = renderWithin(answer.matches, budgetTokens - NOTE_TOKENS, deps.counter);
  const served = answer.matches.slice(0, rendered.served);
  const unserved = answer.matches[rendered.served];
  const stoppedEarly = unserved === undefined && answer.nextLine !== 0 && answer.matches.length < maxMatches;
  const continueAt = unserved ? unserved.line : answer.nextLine;
  let text = rendered.text;
  if (stoppedEarly)
    text += `[loupe] searched lines ${String(fromLine)}–${String(answer.nextLine - 1)} of ${String(record.lineCount)} within the time limit; next_cursor continues from line ${String(answer.nextLine)}\n`;
  else if (answer.matches.length === 0) text += `[loupe] no line matches the pattern in lines ${String(fromLine)}–${String(record.lineCount)}\n`;
  const response: RecoverResponseInit = {
    parts: [{ content: { case: "text", value: text } }],
    revision: record.revision,
    resultId: record.resultId,
    totalLines: record.lineCount,
    totalBytes: Number(record.sizeBytes),
    matches: served.map(({ line, text: matched, before, after }) => ({ line, text: matched, before, after })),
    matchCount: (cursor?.n ?? 0) + served.length,
  };
  if (continueAt !== 0) {
    response.nextCursor = encodePatternCursor({
      t: tenant,
      r: record.resultId,
      h: record.revision,
      p: pattern,
      c: contextLines,
      f: continueAt,
      n: (cursor?.n ?? 0) + served.length,
    });
  }
  return response;
}
