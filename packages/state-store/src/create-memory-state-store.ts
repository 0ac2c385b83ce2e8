import { AppError } from "@loupe/errors";
import { assertIncrementBy, assertSetOptions } from "./assert-options.js";
import type { SetOptions, StateStore } from "./state-store.js";
import { StateTable } from "./state-table.js";

/**
 * A `StateStore` held in process memory only (nothing is persisted), with the same
 * semantics as the Redis and file adapters, TTLs included. For unit tests of other packages.
 */
export function createMemoryStateStore(): StateStore {
  const table = new StateTable();
  let closed = false;
  const assertOpen = (): void => {
    if (closed) throw new AppError("unavailable", "state store is closed");
  };
  // Every method is async so that a throw becomes a rejection, as with the other adapters.
  return {
    async get(key: string) {
      assertOpen();
      return table.get(key, Date.now());
    },
    async set(key: string, value: string, options?: SetOptions) {
      assertOpen();
      assertSetOptions(options, "set");
      table.set(key, value, options?.ttlMs, Date.now());
    },
    async compareAndSet(key: string, expected: string | undefined, value: string, options?: SetOptions) {
      assertOpen();
      assertSetOptions(options, "compareAndSet");
      return table.compareAndSet(key, expected, value, options?.ttlMs, Date.now()) !== undefined;
    },
    async delete(key: string) {
      assertOpen();
      table.delete(key, Date.now());
    },
    async deletePrefix(prefix: string) {
      assertOpen();
      return table.deletePrefix(prefix, Date.now()).count;
    },
    async increment(key: string, by: number, options?: SetOptions) {
      assertOpen();
      assertSetOptions(options, "increment");
      assertIncrementBy(by);
      return table.increment(key, by, options?.ttlMs, Date.now()).value;
    },
    async ttlMs(key: string) {
      assertOpen();
      return table.ttlMs(key, Date.now());
    },
    async ping() {
      assertOpen();
    },
    async close() {
      closed = true;
    },
  };
}
