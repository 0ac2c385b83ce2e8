import { createHash } from "node:crypto";
import { stateKey, type StateStore } from "@loupe/state-store";

/** The latest snapshot of a path a session has read. */
export interface PathRevision {
  revision: string;
  /** "" when that read fit whole and was not saved. */
  resultId: string;
  /** Which part of the file that read covered ("" = all of it; see readScopeOf). Absent in older records. */
  scope?: string;
}

/** Latest revision per (tenant, session, path, part of the file read), in the state store (invariant 7). */
export interface PathRevisions {
  latest(tenant: string, sessionId: string, path: string, scope: string): Promise<PathRevision | undefined>;
  record(tenant: string, sessionId: string, path: string, value: PathRevision & { scope: string }): Promise<void>;
}

/** Path revisions kept for `ttlMs` after the last read (the retention of the results they name). */
export function createPathRevisions(state: StateStore, ttlMs: number): PathRevisions {
  // A whole-file read keeps the key it always had; a range adds a digest of its scope (a command can be long).
  const key = (tenant: string, sessionId: string, path: string, scope: string): string =>
    scope === ""
      ? stateKey(tenant, "path-revision", sessionId, path)
      : stateKey(tenant, "path-revision", sessionId, path, createHash("sha256").update(scope).digest("hex").slice(0, 32));
  return {
    async latest(tenant, sessionId, path, scope) {
      const stored = await state.get(key(tenant, sessionId, path, scope));
      if (stored === undefined) return undefined;
      const value = JSON.parse(stored) as Partial<PathRevision>;
      if (typeof value.revision !== "string" || typeof value.resultId !== "string") return undefined;
      return { revision: value.revision, resultId: value.resultId, ...(typeof value.scope === "string" ? { scope: value.scope } : {}) };
    },
    async record(tenant, sessionId, path, value) {
      await state.set(key(tenant, sessionId, path, value.scope), JSON.stringify(value), { ttlMs });
    },
  };
}
