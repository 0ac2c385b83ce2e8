export { createSessionStore } from "./session-store.js";
export type { SessionStore, SessionMeta, ContextBase, NoteProgress } from "./session-store.js";
