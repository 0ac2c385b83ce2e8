export { turnAddress, parseTurnAddress } from "./turn.js";
export type { Turn, TurnPart, TurnRole, TurnToolCall, TurnToolResult } from "./turn.js";
export type { NoteRecord, NoteUpdateInput, NoteDraft, SummarizeOptions, Summarizer } from "./summarizer.js";
