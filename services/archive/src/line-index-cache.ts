import { lineIndexKey, type ArchiveStore } from "@loupe/archive-store";
import { parseLineIndex, type LineIndex } from "./line-index.js";

/** Line indexes by tenant and blob; immutable, so caching never serves stale data. */
export interface LineIndexCache {
  get(store: ArchiveStore, tenant: string, sha: string, signal?: AbortSignal): Promise<LineIndex>;
}

/** An LRU cache of at most `capacity` parsed indexes (default 512). */
export function createLineIndexCache(capacity = 512): LineIndexCache {
  const entries = new Map<string, LineIndex>();
  return {
    async get(store, tenant, sha, signal) {
      const key = `${tenant}/${sha}`;
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const index = parseLineIndex(await store.get(lineIndexKey(tenant, sha), signal ? { signal } : {}));
      entries.set(key, index);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
      return index;
    },
  };
}
