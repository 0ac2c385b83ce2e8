import type { NoteRecord, SavedResult } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import { stateKey, stateKeyPrefix, type StateStore } from "@loupe/state-store";

/** What Loupe knows of a session besides its turn log. */
export interface SessionMeta {
  source: string;
  /** The window the runtime's model has, in tokens. */
  contextWindowTokens: number;
  /** `sha256:<hex>` of the system prompt and tools stored beside the log ("" = none sent). */
  systemHash: string;
  toolsHash: string;
  /** Tokens of the system prompt plus the tools. */
  prefixTokens: number;
  /** Highest seq accepted. */
  lastSeq: number;
}

/** Where the runtime's context starts after its last Compact: turns through `seq` replaced by a note of `noteTokens`. */
export interface ContextBase {
  seq: number;
  /** Tokens of turns 1…seq when the base was set. */
  turnTokens: number;
  noteTokens: number;
}

/** The note-worker's progress through a session's log. */
export interface NoteProgress {
  /** Every turn through this seq has been seen (the worker recomputes what the note lags by from the log). */
  seenThroughSeq: number;
}

/** A result Project saved for one of the session's tool calls: what a handover note cites. */
export type SavedResultRef = SavedResult;

/** How long a saved result's reference is kept when its session never shows the call (the archive's default retention). */
const SAVED_RESULT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Per-session state in the state store: meta, token tally, note, worker progress and lease. */
export interface SessionStore {
  getMeta(tenant: string, sessionId: string): Promise<SessionMeta | undefined>;
  /** Applies `update` to the stored meta (or undefined) atomically; returns what was stored. */
  updateMeta(tenant: string, sessionId: string, update: (current: SessionMeta | undefined) => SessionMeta): Promise<SessionMeta>;
  /** Adds to the tally of turn tokens and returns it. */
  addTurnTokens(tenant: string, sessionId: string, tokens: number): Promise<number>;
  getBase(tenant: string, sessionId: string): Promise<ContextBase | undefined>;
  setBase(tenant: string, sessionId: string, base: ContextBase): Promise<void>;
  getNote(tenant: string, sessionId: string): Promise<NoteRecord | undefined>;
  /** Stores `note` only when the stored note's version is `expectedVersion` (0 = no note yet). */
  putNote(tenant: string, sessionId: string, expectedVersion: number, note: NoteRecord): Promise<boolean>;
  getProgress(tenant: string, sessionId: string): Promise<NoteProgress>;
  /** Stores `next` only when the stored progress still equals `expected`. */
  compareAndSetProgress(tenant: string, sessionId: string, expected: NoteProgress, next: NoteProgress): Promise<boolean>;
  /** Takes the session's worker lease for `ttlMs` when free or already `owner`'s; false when another owner holds it. */
  acquireLease(tenant: string, sessionId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends `owner`'s lease by `ttlMs` (one compare-and-set); false when `owner` no longer holds it. */
  renewLease(tenant: string, sessionId: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseLease(tenant: string, sessionId: string, owner: string): Promise<void>;
  /** Asks the lease holder to run once more before it lets go (a turn arrived while it held the session). */
  markPending(tenant: string, sessionId: string): Promise<void>;
  /** True once per mark: clears the mark it reports. */
  takePending(tenant: string, sessionId: string): Promise<boolean>;
  /** Marks the session for a handover the model asked for (RequestHandover), with its reason; until cleared. */
  requestHandover(tenant: string, sessionId: string, reason: string): Promise<void>;
  /** The reason of a requested handover not yet done, or undefined. */
  getHandoverRequest(tenant: string, sessionId: string): Promise<string | undefined>;
  /** Clears a requested handover (a Compact did it). */
  clearHandoverRequest(tenant: string, sessionId: string): Promise<void>;
  /** Remembers the result saved for a tool call (from the result events), for the note that folds the call in. */
  putSavedResult(tenant: string, sessionId: string, ref: SavedResultRef): Promise<void>;
  /** The saved results of these tool calls that are known, in the order asked. */
  getSavedResults(tenant: string, sessionId: string, toolUseIds: readonly string[]): Promise<SavedResultRef[]>;
  /** Deletes every key of the session (the turn log stays in the archive). Returns how many went. */
  release(tenant: string, sessionId: string): Promise<number>;
  /** Deletes every session key of the tenant. Returns how many went. */
  releaseAll(tenant: string): Promise<number>;
}

const MAX_ATTEMPTS = 16;
const NO_PROGRESS: NoteProgress = { seenThroughSeq: 0 };

/** A {@link SessionStore} over `state`. */
export function createSessionStore(state: StateStore): SessionStore {
  const key = (tenant: string, sessionId: string, part: string): string => stateKey(tenant, "session", sessionId, part);
  const readJson = async <T>(k: string): Promise<{ raw: string | undefined; value: T | undefined }> => {
    const raw = await state.get(k);
    return { raw, value: raw === undefined ? undefined : (JSON.parse(raw) as T) };
  };
  return {
    getMeta: async (tenant, sessionId) => (await readJson<SessionMeta>(key(tenant, sessionId, "meta"))).value,
    async updateMeta(tenant, sessionId, update) {
      const k = key(tenant, sessionId, "meta");
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const { raw, value } = await readJson<SessionMeta>(k);
        const next = update(value);
        if (await state.compareAndSet(k, raw, JSON.stringify(next))) return next;
      }
      throw new AppError("aborted", `session changed concurrently too often; retry [session=${sessionId.slice(0, 80)}]`);
    },
    addTurnTokens: (tenant, sessionId, tokens) => state.increment(key(tenant, sessionId, "turn-tokens"), tokens),
    getBase: async (tenant, sessionId) => (await readJson<ContextBase>(key(tenant, sessionId, "base"))).value,
    setBase: (tenant, sessionId, base) => state.set(key(tenant, sessionId, "base"), JSON.stringify(base)),
    getNote: async (tenant, sessionId) => (await readJson<NoteRecord>(key(tenant, sessionId, "note"))).value,
    async putNote(tenant, sessionId, expectedVersion, note) {
      const k = key(tenant, sessionId, "note");
      const { raw, value } = await readJson<NoteRecord>(k);
      if ((value?.version ?? 0) !== expectedVersion) return false;
      return state.compareAndSet(k, raw, JSON.stringify(note));
    },
    // Progress stored by earlier versions also holds an `uncoveredTokens` count: only the seq is read.
    getProgress: async (tenant, sessionId) => ({
      seenThroughSeq: (await readJson<NoteProgress>(key(tenant, sessionId, "progress"))).value?.seenThroughSeq ?? 0,
    }),
    async compareAndSetProgress(tenant, sessionId, expected, next) {
      const k = key(tenant, sessionId, "progress");
      const raw = await state.get(k);
      const current = raw === undefined ? NO_PROGRESS : (JSON.parse(raw) as NoteProgress);
      if (current.seenThroughSeq !== expected.seenThroughSeq) return false;
      return state.compareAndSet(k, raw, JSON.stringify({ seenThroughSeq: next.seenThroughSeq }));
    },
    async acquireLease(tenant, sessionId, owner, ttlMs) {
      const k = key(tenant, sessionId, "lease");
      // A released lease reads "" until its 1 ms expiry: it is free (the holder's hand-off re-acquires at once).
      // It can expire between two of these steps, so a lease that reads free after all three is tried again.
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await state.compareAndSet(k, undefined, owner, { ttlMs })) return true;
        if (await state.compareAndSet(k, "", owner, { ttlMs })) return true;
        if (await state.compareAndSet(k, owner, owner, { ttlMs })) return true;
        const holder = await state.get(k);
        if (holder !== undefined && holder !== "") return false;
      }
      return false;
    },
    renewLease: (tenant, sessionId, owner, ttlMs) => state.compareAndSet(key(tenant, sessionId, "lease"), owner, owner, { ttlMs }),
    async releaseLease(tenant, sessionId, owner) {
      await state.compareAndSet(key(tenant, sessionId, "lease"), owner, "", { ttlMs: 1 });
    },
    markPending: (tenant, sessionId) => state.set(key(tenant, sessionId, "pending"), "1"),
    takePending: (tenant, sessionId) => state.compareAndSet(key(tenant, sessionId, "pending"), "1", "0"),
    requestHandover: (tenant, sessionId, reason) => state.set(key(tenant, sessionId, "handover"), reason),
    getHandoverRequest: (tenant, sessionId) => state.get(key(tenant, sessionId, "handover")),
    clearHandoverRequest: (tenant, sessionId) => state.delete(key(tenant, sessionId, "handover")),
    putSavedResult: (tenant, sessionId, ref) =>
      state.set(stateKey(tenant, "session", sessionId, "result", ref.toolUseId), JSON.stringify(ref), { ttlMs: SAVED_RESULT_TTL_MS }),
    async getSavedResults(tenant, sessionId, toolUseIds) {
      const found = await Promise.all(
        [...new Set(toolUseIds)].filter((id) => id !== "").map((id) => readJson<SavedResultRef>(stateKey(tenant, "session", sessionId, "result", id))),
      );
      return found.flatMap(({ value }) => (value === undefined ? [] : [value]));
    },
    release: (tenant, sessionId) => state.deletePrefix(stateKeyPrefix(tenant, "session", sessionId)),
    releaseAll: (tenant) => state.deletePrefix(stateKeyPrefix(tenant, "session")),
  };
}
