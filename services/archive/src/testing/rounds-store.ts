import type { ArchiveStore } from "@loupe/archive-store";

/**
 * `store` as S3 behaves for a Put's tests: every put durable on its own (no `sync`), and the keys of each
 * round of puts in flight together recorded in `rounds` (a new round starts once none is pending).
 */
export function roundsStore(store: ArchiveStore): { store: ArchiveStore; rounds: string[][] } {
  const rounds: string[][] = [];
  let pending = 0;
  const wrapped: ArchiveStore = {
    ...store,
    put: async (key, body, options) => {
      if (pending === 0) rounds.push([]);
      rounds.at(-1)?.push(key);
      pending += 1;
      try {
        return await store.put(key, body, options);
      } finally {
        pending -= 1;
      }
    },
  };
  delete (wrapped as { sync?: unknown }).sync;
  return { store: wrapped, rounds };
}
