import { stateKey, type StateStore } from "@loupe/state-store";

/** The latest snapshot of a path a session has read. */
export interface PathRevision {
  revision: string;
  /** "" when that read fit whole and was not saved. */
  resultId: string;
  /** Which part of the file that read covered ("" = all of it; see readScopeOf). Absent in older records. */
  scope?: string;
}

/** Latest revision per (tenant, session, path), in the state store (invariant 7). */
export interface PathRevisions {
  latest(tenant: string, sessionId: string, path: string): Promise<PathRevision | undefined>;
  record(tenant: string, sessionId: string, path: string, value: PathRevision): Promise<void>;
}

/** Path revisions kept for `ttlMs` after the last read (the retention of the results they name). */
export function createPathRevisions(state: StateStore, ttlMs: number): PathRevisions {
  const key = (tenant: string, sessionId: string, path: string): string => stateKey(tenant, "path-revision", sessionId, path);
  return {
    async latest(tenant, sessionId, path) {
      const stored = await state.get(key(tenant, sessionId, path));
      if (stored === undefined) return undefined;
      const value = JSON.parse(stored) as Partial<PathRevision>;
      if (typeof value.revision !== "string" || typeof value.resultId !== "string") return undefined;
      return { revision: value.revision, resultId: value.resultId, ...(typeof value.scope === "string" ? { scope: value.scope } : {}) };
    },
    async record(tenant, sessionId, path, value) {
      await state.set(key(tenant, sessionId, path), JSON.stringify(value), { ttlMs });
    },
  };
}
