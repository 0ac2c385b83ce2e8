import { validateSessionId } from "@loupe/archive-store/content";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { NoteRecord } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import type {
  EndSessionRequest,
  EndSessionResponseSchema,
  GetNoteRequest,
  GetNoteResponseSchema,
  NoteSchema,
  PutNoteRequest,
  PutNoteResponseSchema,
} from "@loupe/proto";
import type { ConversationDeps } from "./conversation-deps.js";
import { readLog } from "./session-log.js";

/** Longest note PutNote accepts, in characters. */
export const MAX_NOTE_CHARS = 200_000;
const MAX_ATTEMPTS = 8;

function noteMessage(note: NoteRecord, lastSeq: number, lagTokens: number): MessageInitShape<typeof NoteSchema> {
  return {
    text: note.text,
    coveredThroughSeq: note.coveredThroughSeq,
    version: note.version,
    author: note.author,
    lagTurns: Math.max(0, lastSeq - note.coveredThroughSeq),
    lagTokens,
  };
}

/** GetNote: the note, its watermark and how far it lags the log (turns and tokens, read from the log itself). */
export async function getNote(
  deps: ConversationDeps,
  tenant: string,
  request: GetNoteRequest,
  signal?: AbortSignal,
): Promise<MessageInitShape<typeof GetNoteResponseSchema>> {
  validateSessionId(request.sessionId);
  const meta = await deps.sessions.getMeta(tenant, request.sessionId);
  if (meta === undefined) throw new AppError("not_found", `no turns for this session [session=${request.sessionId.slice(0, 80)}]`);
  const note = await deps.sessions.getNote(tenant, request.sessionId);
  const covered = note?.coveredThroughSeq ?? 0;
  const log = await readLog(deps.archive, tenant, { sessionId: request.sessionId, startSeq: covered + 1, endSeq: 0 }, signal);
  const lagTokens = log.turns.reduce((total, turn) => total + turn.tokenCount, 0);
  const lagTurns = Math.max(0, log.lastSeq - covered);
  return note === undefined ? { lagTurns } : { note: noteMessage(note, log.lastSeq, lagTokens), lagTurns };
}

/**
 * PutNote: a model hands over its own note (model-initiated handover). It must cover accepted turns and
 * may not go back behind the stored note; the worker continues from it.
 */
export async function putNote(deps: ConversationDeps, tenant: string, request: PutNoteRequest): Promise<MessageInitShape<typeof PutNoteResponseSchema>> {
  validateSessionId(request.sessionId);
  if (request.text.trim() === "") throw new AppError("invalid_argument", "text is required");
  if (request.text.length > MAX_NOTE_CHARS) throw new AppError("invalid_argument", `note too long [max_chars=${String(MAX_NOTE_CHARS)}]`);
  if (request.coveredThroughSeq === 0) throw new AppError("invalid_argument", "covered_through_seq must be 1 or more");
  const meta = await deps.sessions.getMeta(tenant, request.sessionId);
  if (meta === undefined) throw new AppError("not_found", `no turns for this session [session=${request.sessionId.slice(0, 80)}]`);
  if (request.coveredThroughSeq > meta.lastSeq) {
    throw new AppError(
      "failed_precondition",
      `covered_through_seq is past the last accepted turn [covered_through_seq=${String(request.coveredThroughSeq)}, last_seq=${String(meta.lastSeq)}]`,
    );
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await deps.sessions.getNote(tenant, request.sessionId);
    if (current !== undefined && current.coveredThroughSeq > request.coveredThroughSeq) {
      throw new AppError(
        "failed_precondition",
        `the stored note already covers more [stored=${String(current.coveredThroughSeq)}, given=${String(request.coveredThroughSeq)}]`,
      );
    }
    const next: NoteRecord = {
      text: request.text,
      coveredThroughSeq: request.coveredThroughSeq,
      version: (current?.version ?? 0) + 1,
      state: "",
      author: "model",
    };
    if (await deps.sessions.putNote(tenant, request.sessionId, current?.version ?? 0, next)) return { note: noteMessage(next, meta.lastSeq, 0) };
  }
  throw new AppError("aborted", "the note changed concurrently too often; retry");
}

/** EndSession: releases the session's state (note, watermark, meta); its turn log stays readable until deleted. */
export async function endSession(
  deps: ConversationDeps,
  tenant: string,
  request: EndSessionRequest,
): Promise<MessageInitShape<typeof EndSessionResponseSchema>> {
  validateSessionId(request.sessionId);
  return { released: await deps.sessions.release(tenant, request.sessionId) };
}
