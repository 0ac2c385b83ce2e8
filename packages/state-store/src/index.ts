export { createFileStateStore } from "./create-file-state-store.js";
export { createMemoryStateStore } from "./create-memory-state-store.js";
export { stateKey, stateKeyPrefix } from "./state-key.js";
export type { SetOptions, StateStore } from "./state-store.js";
export type { FileStateStoreOptions } from "./create-file-state-store.js";
