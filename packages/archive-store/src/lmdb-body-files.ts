import { randomUUID } from "node:crypto";
import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { PutOptions } from "./archive-store.js";
import { createDirectorySync, type DirectorySync } from "./directory-sync.js";
import { errnoOf } from "./file-errors.js";
import { putFile } from "./put-file.js";
import { readFileRange } from "./read-file.js";
import type { GetOptions } from "./archive-store.js";

/** Where a large body of the LMDB store lives: a file of its own, named in the database. @internal */
export interface BodyFile {
  name: string;
  sizeBytes: number;
}

/**
 * The large bodies of the LMDB store (see createLmdbArchiveStore), each in a file of its own under
 * `<root>/bodies`, written whole and fsynced (folder too) before the database names it, so the database
 * never names a file that is not durable; a file the database does not name (a crash between the two, or a
 * put that lost a race) is removed by `sweep`. Streaming to a file keeps a large body out of memory.
 *
 * @internal
 */
export class LmdbBodyFiles {
  readonly #folder: string;
  readonly #directories: DirectorySync;

  constructor(root: string) {
    this.#folder = join(root, "bodies");
    this.#directories = createDirectorySync(root);
  }

  /** Writes `body` durably to a fresh file; resolves with its name and size. */
  async write(body: Uint8Array | AsyncIterable<Uint8Array>, options: PutOptions, context: string): Promise<BodyFile> {
    const name = randomUUID();
    let sizeBytes = 0;
    const counted = async function* (): AsyncIterable<Uint8Array> {
      for await (const chunk of body instanceof Uint8Array ? [body] : body) {
        sizeBytes += chunk.byteLength;
        yield chunk;
      }
    };
    await this.#directories.ensure(this.#folder);
    await putFile(
      this.pathOf(name),
      counted(),
      { ...(options.sizeBytes === undefined ? {} : { sizeBytes: options.sizeBytes }), ...(options.signal ? { signal: options.signal } : {}) },
      context,
      this.#directories,
    );
    return { name, sizeBytes };
  }

  /** Reads a body file, or only `options.range` of it. */
  read(file: BodyFile, options: GetOptions): Promise<Uint8Array> {
    return readFileRange(this.pathOf(file.name), options);
  }

  /** Removes a body file; a missing one is fine. */
  async remove(name: string): Promise<void> {
    try {
      await unlink(this.pathOf(name));
    } catch (error) {
      if (errnoOf(error) !== "ENOENT") throw error;
    }
  }

  /** Removes every body file `named` does not name (what a crash or a lost race left). */
  async sweep(named: (name: string) => boolean): Promise<number> {
    let entries: string[];
    try {
      entries = await readdir(this.#folder);
    } catch (error) {
      if (errnoOf(error) === "ENOENT") return 0;
      throw error;
    }
    let removed = 0;
    for (const entry of entries) {
      if (named(entry)) continue;
      await this.remove(entry);
      removed++;
    }
    return removed;
  }

  private pathOf(name: string): string {
    return join(this.#folder, name);
  }
}
