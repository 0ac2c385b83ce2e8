export { createSessionStore } from "./session-store.js";
export type { SessionStore, SessionMeta, ContextBase, NoteProgress, SavedResultRef } from "./session-store.js";
