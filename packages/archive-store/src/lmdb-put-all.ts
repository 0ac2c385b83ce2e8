import { AppError } from "@loupe/errors";
import { throwIfAborted } from "./abort-error.js";
import type { AtomicPut, PutAllOptions, PutOutcome } from "./archive-store.js";
import { assertValidKey } from "./key-rules.js";
import { storeError, type Opened } from "./lmdb-database.js";
import type { WrittenMemo } from "./written-memo.js";

/**
 * The LMDB store's `putAll`: every object a value of the database (at most `inlineMaxBytes` each), written
 * in one transaction — visible together once committed, durable together once flushed, which it waits for.
 * An `ifAbsent` key found (inline or as a body file) is left as it is; a key that had a body file is
 * replaced by the value, and the file it leaves unnamed is removed once that change is flushed. The memo
 * of flushed bodies forgets each key while it is written and learns the bodies overwritten. `onAccepted` is
 * called at the end of the transaction's callback: from there, the commit and its flush run on LMDB's write
 * thread, and this thread is free (the callback itself runs on this thread, so it waits for it to be idle).
 */
export async function lmdbPutAll(
  opened: Opened,
  objects: readonly AtomicPut[],
  options: PutAllOptions,
  limits: { inlineMaxBytes: number; memo: WrittenMemo },
): Promise<PutOutcome[]> {
  const keys = new Set<string>();
  for (const { key, body } of objects) {
    assertValidKey(key);
    if (keys.has(key)) throw new AppError("invalid_argument", `putAll names a key twice [key=${key}]`);
    keys.add(key);
    if (body.byteLength > limits.inlineMaxBytes) {
      throw new AppError("invalid_argument", `putAll body over the inline size [key=${key}, max_bytes=${String(limits.inlineMaxBytes)}]`);
    }
  }
  const context = `keys=${String(objects.length)}, first=${objects[0]?.key ?? ""}`;
  throwIfAborted(options.signal, context);
  if (objects.length === 0) return [];
  const { root: env, bodies } = opened;
  const ends = objects.map(({ key }) => limits.memo.begin(key));
  const learned: Array<Uint8Array | undefined> = objects.map(() => undefined);
  const unnamed: string[] = [];
  try {
    const outcomes = await env.transaction((): PutOutcome[] => {
      const placed = objects.map(({ key, body, ifAbsent }, index): PutOutcome => {
        const { outcome, replaced } = placeValue(opened, key, body, ifAbsent === true);
        if (replaced !== undefined) unnamed.push(replaced);
        if (outcome === "created" && ifAbsent !== true) learned[index] = body;
        return outcome;
      });
      try {
        options.onAccepted?.();
      } catch {
        // The caller's signal only: the write goes on whatever it does.
      }
      return placed;
    });
    await env.flushed;
    for (const name of unnamed) await bodies.remove(name).catch(() => undefined);
    return outcomes;
  } catch (error) {
    learned.fill(undefined);
    throw storeError(error, "write", context);
  } finally {
    ends.forEach((end, index) => end(learned[index]));
  }
}

/**
 * Inside a write transaction: `body` as the value of `key` — unless `ifAbsent` and the key exists (inline or
 * as a body file): `"exists"`. A body file the key named is unnamed (`replaced`), to be removed once the
 * change is flushed.
 */
export function placeValue(
  opened: Pick<Opened, "objects" | "files">,
  key: string,
  body: Uint8Array,
  ifAbsent: boolean,
): { outcome: PutOutcome; replaced?: string } {
  const { objects, files } = opened;
  if (ifAbsent && (objects.doesExist(key) || files.doesExist(key))) return { outcome: "exists" };
  const replaced = files.get(key)?.name;
  if (replaced !== undefined) void files.remove(key);
  void objects.put(key, Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  return replaced === undefined ? { outcome: "created" } : { outcome: "created", replaced };
}
