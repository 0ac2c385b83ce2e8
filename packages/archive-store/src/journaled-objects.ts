import { unlink } from "node:fs/promises";
import type { JournalObject, ObjectJournal } from "./object-journal.js";

interface Deferred extends JournalObject {
  /** Created by a conditional put: removed again when it cannot be made durable. */
  readonly created: boolean;
  /** Set once a line holding it is on its way to the journal. */
  durable?: Promise<void>;
}

/**
 * The small objects of the file store on their way to durability through its journal: recorded at once,
 * or kept (placed, readable, not yet durable) until a sync of their keys records them together in one
 * line. Anyone relying on an object that exists — a conditional creator that found it — settles it first.
 *
 * @internal
 */
export class JournaledObjects {
  readonly #journal: ObjectJournal;
  readonly #deferred = new Map<string, Deferred>();

  constructor(journal: ObjectJournal) {
    this.#journal = journal;
  }

  /** Makes the object just placed at `object.path` durable now, or (with `defer`) at the next sync of its key. */
  async commit(object: JournalObject, created: boolean, defer: boolean): Promise<void> {
    if (defer) {
      this.#deferred.set(object.path, { ...object, created });
      return;
    }
    this.#deferred.delete(object.path);
    try {
      await this.#journal.recordPut(object.key, object.path, object.body);
    } catch (error) {
      // Not durable, so not created: nobody may rely on it (a creator that found it waited, and fails too).
      if (created) await unlink(object.path).catch(() => undefined);
      throw error;
    }
  }

  /** Resolves once the object at `path` is durable, recording it first when its put deferred that; rejects when it cannot be. */
  async settle(path: string): Promise<void> {
    const deferred = this.#deferred.get(path);
    if (deferred === undefined) return this.#journal.settled(path);
    return this.sync([path]);
  }

  /** Records the deferred objects at `paths` in one journal line; resolves once every one of them is durable. */
  async sync(paths: readonly string[]): Promise<void> {
    const objects = paths.map((path) => this.#deferred.get(path)).filter((object) => object !== undefined);
    const fresh = objects.filter((object) => object.durable === undefined);
    if (fresh.length > 0) {
      const durable = this.#journal.recordPuts(fresh);
      for (const object of fresh) object.durable = durable;
    }
    try {
      await Promise.all([...new Set(objects.map((object) => object.durable)), ...paths.map((path) => this.#journal.settled(path))]);
    } catch (error) {
      for (const object of fresh) if (object.created) await unlink(object.path).catch(() => undefined);
      throw error;
    } finally {
      for (const object of objects) if (this.#deferred.get(object.path) === object) this.#deferred.delete(object.path);
    }
  }

  /** Forgets a deferred object whose file was deleted (its deletion is journaled instead). */
  forget(path: string): void {
    this.#deferred.delete(path);
  }
}
