import type { Database } from "lmdb";

/** Keys read per database per listing page: each page is one short read transaction. */
export const LIST_PAGE_KEYS = 1000;

/** Up to `limit` keys of `database` starting with `prefix`, after `after` (or from the prefix on), in order. */
function page(database: Database<unknown, string>, prefix: string, after: string | undefined, limit: number): string[] {
  const keys: string[] = [];
  for (const key of database.getKeys({ start: after ?? prefix, limit: limit + 1 })) {
    if (!key.startsWith(prefix)) break;
    if (key !== after) keys.push(key);
    if (keys.length === limit) break;
  }
  return keys;
}

/**
 * Every key starting with `prefix` in any of `databases` (no key is in two), in ascending order, page by
 * page from the last key given, so no read transaction stays open while the caller works. `beforePage`
 * runs before each page is read (counting, cancellation).
 *
 * @internal
 */
export async function* mergedKeys(
  databases: ReadonlyArray<Database<never, string> | Database<unknown, string>>,
  prefix: string,
  beforePage: () => void,
): AsyncIterable<string> {
  let after: string | undefined;
  for (;;) {
    beforePage();
    const pages = databases.map((database) => page(database as Database<unknown, string>, prefix, after, LIST_PAGE_KEYS));
    const merged = pages.flat().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    // Only keys below every page's last are known to have no smaller key left unread in another database.
    const full = pages.filter((keys) => keys.length === LIST_PAGE_KEYS);
    const bound = full.length === 0 ? undefined : full.map((keys) => keys[keys.length - 1]!).sort()[0];
    const taken = bound === undefined ? merged : merged.filter((key) => key <= bound);
    yield* taken;
    if (bound === undefined) return;
    after = bound;
  }
}

/**
 * The folders directly under `prefix` (see ArchiveStore.listFolders) in any of `databases`, in ascending
 * order: one seek per folder past the last (a folder `p/x/` ends before `p/x0`, `/` being one below `0`).
 *
 * @internal
 */
export function folderKeys(databases: ReadonlyArray<Database<never, string> | Database<unknown, string>>, prefix: string): string[] {
  const folders = new Set<string>();
  for (const database of databases as ReadonlyArray<Database<unknown, string>>) {
    let start = prefix;
    for (;;) {
      const [key] = database.getKeys({ start, limit: 1 });
      if (key === undefined || !key.startsWith(prefix)) break;
      const slash = key.indexOf("/", prefix.length);
      if (slash < 0) {
        // A key directly under the prefix: the next folder starts after it.
        start = `${key}\u0000`;
        continue;
      }
      const folder = key.slice(0, slash + 1);
      folders.add(folder);
      start = `${key.slice(0, slash)}0`;
    }
  }
  return [...folders].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
