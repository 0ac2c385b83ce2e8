import type { NoteRecord, Turn } from "@loupe/conversation";

/**
 * The text of the message that carries a note into the context. It names the session, so a model
 * whose context was compacted can pass it to Loupe's read_history and search_history tools (the
 * session id appears nowhere else in a compacted context).
 */
export function noteMessageText(note: Pick<NoteRecord, "text" | "coveredThroughSeq">, sessionId: string): string {
  return (
    `[loupe] Handover note: it stands for turns 1–${String(note.coveredThroughSeq)} of session ${JSON.stringify(sessionId)}, ` +
    `which stay readable by address (turn:<seq>) with Loupe's read_history and search_history tools (session_id ${JSON.stringify(sessionId)}).\n\n${note.text}`
  );
}

/** The note as the first turn of an assembled context. */
export function noteTurn(note: Pick<NoteRecord, "text" | "coveredThroughSeq">, sessionId: string, tokenCount: number): Turn {
  return {
    seq: note.coveredThroughSeq,
    role: "user",
    parts: [{ type: "text", text: noteMessageText(note, sessionId) }],
    toolCalls: [],
    toolResults: [],
    tokenCount,
  };
}
