import { validateSessionId } from "@loupe/archive-store/content";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { parseTurnAddress, renderTurnText, type Turn } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import { pageText } from "@loupe/projection";
import type { ReadHistoryRequest, ReadHistoryResponseSchema } from "@loupe/proto";
import { MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS } from "@loupe/rules";
import type { ConversationDeps } from "./conversation-deps.js";
import { decodeHistoryCursor, encodeHistoryCursor, type HistoryCursor } from "./history-cursor.js";
import { readLog } from "./session-log.js";
import { turnToProto } from "./turn-codec.js";

const DEFAULT_HISTORY_BUDGET = 2000;
/** Turns read from the log per answer before the budget is checked. */
const READ_AHEAD_TURNS = 64;
const SEPARATOR = "\n\n";

/** Where a request starts and ends. */
function rangeOf(request: ReadHistoryRequest): HistoryCursor {
  if (request.cursor !== "") return decodeHistoryCursor(request.cursor, request.sessionId);
  if (request.address !== "") {
    const seq = parseTurnAddress(request.address);
    if (seq === undefined) throw new AppError("invalid_argument", `address must be turn:<seq> [address=${request.address.slice(0, 40)}]`);
    return { sessionId: request.sessionId, seq, offset: 0, endSeq: seq };
  }
  const start = request.startSeq ?? 1;
  const end = request.endSeq ?? 0;
  if (start === 0) throw new AppError("invalid_argument", "start_seq must be 1 or more");
  if (end !== 0 && end < start) throw new AppError("invalid_argument", `end_seq before start_seq [start_seq=${String(start)}, end_seq=${String(end)}]`);
  return { sessionId: request.sessionId, seq: start, offset: 0, endSeq: end };
}

/**
 * ReadHistory: turns by address (`turn:12`), seq range or cursor, as text within the token budget —
 * whole turns while they fit; a turn too long for the budget is served in pages of whole lines, and
 * `next_cursor` continues exactly where the answer stopped.
 */
export async function readHistory(
  deps: ConversationDeps,
  tenant: string,
  request: ReadHistoryRequest,
  signal?: AbortSignal,
): Promise<MessageInitShape<typeof ReadHistoryResponseSchema>> {
  validateSessionId(request.sessionId);
  const budget = request.budgetTokens === 0 ? DEFAULT_HISTORY_BUDGET : request.budgetTokens;
  if (budget < MIN_BUDGET_TOKENS || budget > MAX_BUDGET_TOKENS)
    throw new AppError("invalid_argument", `budget_tokens out of range [min=${String(MIN_BUDGET_TOKENS)}, max=${String(MAX_BUDGET_TOKENS)}]`);
  const range = rangeOf(request);
  const readEnd = range.endSeq === 0 ? range.seq + READ_AHEAD_TURNS - 1 : Math.min(range.endSeq, range.seq + READ_AHEAD_TURNS - 1);
  const log = await readLog(deps.archive, tenant, { sessionId: request.sessionId, startSeq: range.seq, endSeq: readEnd }, signal);
  if (log.turns.length === 0)
    throw new AppError("not_found", `no such turns in the session [session=${request.sessionId.slice(0, 80)}, from=turn:${String(range.seq)}]`);

  const served: Turn[] = [];
  const texts: string[] = [];
  let used = 0;
  let paged: number | undefined;
  let resume: { seq: number; offset: number } | undefined;
  for (const [index, turn] of log.turns.entries()) {
    const full = renderTurnText(turn);
    const from = turn.seq === range.seq ? range.offset : 0;
    const text = full.slice(from);
    const cost = deps.counter.within(text + SEPARATOR, budget - used);
    if (cost !== false && from === 0) {
      served.push(turn);
      texts.push(text);
      used += cost;
      continue;
    }
    if (texts.length > 0) {
      resume = { seq: turn.seq, offset: 0 };
      break;
    }
    // The first turn alone is too long (or is being continued): serve one page of it.
    const page = pageText(text, budget, deps.counter, true);
    texts.push(page.text);
    paged = turn.seq;
    const offset = from + page.text.length;
    resume = offset < full.length ? { seq: turn.seq, offset } : { seq: log.turns[index + 1]?.seq ?? turn.seq + 1, offset: 0 };
    break;
  }
  resume ??= { seq: (log.turns.at(-1)?.seq ?? range.seq) + 1, offset: 0 };
  const more = resume.offset > 0 || (range.endSeq === 0 ? resume.seq <= log.lastSeq : resume.seq <= range.endSeq);
  const next = more ? { ...range, ...resume } : undefined;
  const seqs = [...served.map((turn) => turn.seq), ...(paged === undefined ? [] : [paged])];
  return {
    turns: served.map(turnToProto),
    text: texts.join(SEPARATOR),
    nextCursor: next === undefined ? "" : encodeHistoryCursor(next),
    startSeq: Math.min(...seqs),
    endSeq: Math.max(...seqs),
  };
}
