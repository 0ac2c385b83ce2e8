import { validateSessionId } from "@loupe/archive-store/content";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { contiguousAfter, planCompaction, type NoteRecord, type Turn } from "@loupe/conversation";
import { summarizeWithFallback } from "@loupe/summarizer";
import { AppError } from "@loupe/errors";
import { CompactPath, type CompactRequest, type CompactResponseSchema } from "@loupe/proto";
import { assembleContext, checkCompactFormat } from "./assemble-context.js";
import type { ConversationDeps } from "./conversation-deps.js";
import { noteMessageText, noteTurn } from "./note-message.js";
import { readLog } from "./session-log.js";

const MAX_CONTEXT_LIMIT = 10_000_000;

/**
 * Compact: the context to swap in at the window's limit. PREPARED when the worker's note and the turns it
 * does not cover fit (no model call); otherwise FALLBACK: fold the older middle into the note now, keep
 * the recent turns, store the new note. Reads the log itself, so every accepted turn is in the answer.
 * A context that does not fit is refused (RESOURCE_EXHAUSTED), never returned as if it did.
 */
export async function compact(
  deps: ConversationDeps,
  tenant: string,
  request: CompactRequest,
  signal?: AbortSignal,
): Promise<MessageInitShape<typeof CompactResponseSchema>> {
  validateSessionId(request.sessionId);
  checkCompactFormat(request.format);
  if (request.contextLimitTokens === 0 || request.contextLimitTokens > MAX_CONTEXT_LIMIT)
    throw new AppError("invalid_argument", `context_limit_tokens must be 1 to ${String(MAX_CONTEXT_LIMIT)}`);
  if (request.reserveTokens >= request.contextLimitTokens) throw new AppError("invalid_argument", "reserve_tokens must be below context_limit_tokens");
  const meta = await deps.sessions.getMeta(tenant, request.sessionId);
  if (meta === undefined) throw new AppError("not_found", `no turns for this session [session=${request.sessionId.slice(0, 80)}]`);
  const note = await deps.sessions.getNote(tenant, request.sessionId);
  const covered = note?.coveredThroughSeq ?? 0;
  const log = await readLog(
    deps.archive,
    tenant,
    { sessionId: request.sessionId, startSeq: covered + 1, endSeq: 0, systemHash: meta.systemHash, toolsHash: meta.toolsHash },
    signal,
  );
  const uncovered = contiguousAfter(log.turns, covered);
  if (uncovered.length < log.turns.length)
    throw new AppError("failed_precondition", `the turn log has a gap at turn:${String(covered + uncovered.length + 1)}; append it first`);
  const noteTokens = note === undefined ? 0 : deps.counter.count(noteMessageText(note, request.sessionId));
  const plan = planCompaction({
    contextLimitTokens: request.contextLimitTokens,
    reserveTokens: request.reserveTokens,
    prefixTokens: meta.prefixTokens,
    note: note === undefined ? undefined : { coveredThroughSeq: covered, tokens: noteTokens },
    uncovered,
  });
  if (plan.path === "impossible") throw new AppError("resource_exhausted", `the context cannot fit [reason=${plan.reason}]`, { reason: "too_large" });

  let final: { note: NoteRecord | undefined; noteTokens: number; keep: Turn[]; path: CompactPath; reason: string };
  if (plan.path === "prepared") {
    final = { note, noteTokens, keep: plan.keep, path: CompactPath.PREPARED, reason: plan.reason };
  } else {
    const rule = await deps.rules.get(tenant, meta.source);
    const input = {
      systemPrompt: log.systemPrompt,
      toolsJson: log.toolsJson,
      previous: note,
      coveredTurns: [],
      newTurns: plan.summarize,
      maxNoteTokens: plan.noteBudgetTokens,
    };
    const summarizer = deps.summarizerFor(rule);
    const { draft, author, failedCode } = await summarizeWithFallback(summarizer, input, signal ? { signal } : {});
    const why = failedCode === undefined ? "" : ` (the ${summarizer.name} summarizer failed with ${failedCode}; the extractive one wrote it)`;
    const last = plan.summarize.at(-1)?.seq ?? covered;
    const next: NoteRecord = { text: draft.text, coveredThroughSeq: last, version: (note?.version ?? 0) + 1, state: draft.state, author };
    const tokens = deps.counter.count(noteMessageText(next, request.sessionId));
    if (tokens > plan.noteBudgetTokens + Math.ceil(plan.room * 0.02)) {
      throw new AppError(
        "resource_exhausted",
        `the fallback note does not fit [note_tokens=${String(tokens)}, budget_tokens=${String(plan.noteBudgetTokens)}]`,
        { reason: "too_large" },
      );
    }
    // Stored for the worker to continue from, unless it moved the note meanwhile.
    await deps.sessions.putNote(tenant, request.sessionId, note?.version ?? 0, next);
    final = {
      note: next,
      noteTokens: tokens,
      keep: plan.keep,
      path: CompactPath.FALLBACK,
      reason: `${plan.reason}; folded turns ${String(covered + 1)}–${String(last)} into the note now${why}`,
    };
  }

  const keptTokens = final.keep.reduce((total, turn) => total + turn.tokenCount, 0);
  const total = meta.prefixTokens + final.noteTokens + keptTokens;
  const watermark = final.note?.coveredThroughSeq ?? 0;
  const turns = final.note === undefined ? final.keep : [noteTurn(final.note, request.sessionId, final.noteTokens), ...final.keep];
  const tally = await deps.sessions.addTurnTokens(tenant, request.sessionId, 0);
  await deps.sessions.setBase(tenant, request.sessionId, { seq: watermark, turnTokens: Math.max(0, tally - keptTokens), noteTokens: final.noteTokens });
  // The handover a model asked for is done.
  await deps.sessions.clearHandoverRequest(tenant, request.sessionId);
  return {
    path: final.path,
    messagesJson: assembleContext(request.format, log.systemPrompt, log.toolsJson, turns),
    ...(final.note === undefined
      ? {}
      : { note: { text: final.note.text, coveredThroughSeq: watermark, version: final.note.version, author: final.note.author, lagTurns: final.keep.length } }),
    watermarkSeq: watermark,
    reason: final.reason,
    tokens: total,
  };
}
