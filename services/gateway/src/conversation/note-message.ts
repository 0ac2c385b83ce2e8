import type { NoteRecord, Turn } from "@loupe/conversation";

/** The text of the message that carries a note into the context. */
export function noteMessageText(note: Pick<NoteRecord, "text" | "coveredThroughSeq">): string {
  return (
    `[loupe] Handover note: it stands for turns 1–${String(note.coveredThroughSeq)} of this session, ` +
    `which stay readable by address (turn:<seq>) with read_history and search_history.\n\n${note.text}`
  );
}

/** The note as the first turn of an assembled context. */
export function noteTurn(note: Pick<NoteRecord, "text" | "coveredThroughSeq">, tokenCount: number): Turn {
  return { seq: note.coveredThroughSeq, role: "user", parts: [{ type: "text", text: noteMessageText(note) }], toolCalls: [], toolResults: [], tokenCount };
}
