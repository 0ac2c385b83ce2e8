import assert from "node:assert/strict";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createDirectorySync } from "./directory-sync.js";

/** An fsync that records the folders it was called on, and can be held until released. */
function recordingFsync(): { fsync: (directory: string) => Promise<void>; calls: string[]; hold: () => () => void } {
  const calls: string[] = [];
  let gate: Promise<void> | undefined;
  return {
    calls,
    fsync: async (directory) => {
      calls.push(directory);
      await gate;
    },
    hold: () => {
      let release = (): void => undefined;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe("createDirectorySync()", () => {
  let base = "";
  before(async () => {
    base = await mkdtemp(join(tmpdir(), "loupe-directory-sync-"));
  });
  after(async () => rm(base, { recursive: true, force: true }));

  it("creates a folder once, syncing the parent of every folder up to the root's", async () => {
    const root = join(base, "create", "root");
    const { fsync, calls } = recordingFsync();
    const directories = createDirectorySync(root, { fsyncDirectory: fsync });
    const leaf = join(root, "a", "b");
    await (
      await directories.ensure(leaf)
    ).durable;
    assert.ok((await stat(leaf)).isDirectory());
    assert.deepEqual([...calls].sort(), [dirname(root), root, join(root, "a")].sort());
    calls.length = 0;
    await (
      await directories.ensure(leaf)
    ).durable;
    await (
      await directories.ensure(join(root, "a", "c"))
    ).durable;
    assert.deepEqual(calls, [join(root, "a")], "a known folder costs nothing; a new sibling syncs only its parent");
  });

  it("has concurrent callers share one creation", async () => {
    const root = join(base, "shared");
    const { fsync, calls } = recordingFsync();
    const directories = createDirectorySync(root, { fsyncDirectory: fsync });
    const leaf = join(root, "x");
    await Promise.all(Array.from({ length: 20 }, async () => (await directories.ensure(leaf)).durable));
    assert.deepEqual([...calls].sort(), [base, root].sort());
  });

  it("has callers during a running fsync share the next one, which starts after it", async () => {
    const root = join(base, "group");
    const { fsync, calls, hold } = recordingFsync();
    const directories = createDirectorySync(root, { fsyncDirectory: fsync });
    const release = hold();
    const first = directories.sync(root);
    let laterDone = 0;
    const later = Array.from({ length: 10 }, () => directories.sync(root).then(() => laterDone++));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls.length, 1, "no second fsync while the first runs");
    assert.equal(laterDone, 0, "later callers wait for an fsync begun after their call");
    release();
    await first;
    await Promise.all(later);
    assert.equal(calls.length, 2, "one more fsync served all ten");
    await directories.sync(root);
    assert.equal(calls.length, 3, "an idle folder is synced at once");
  });

  it("passes an fsync failure to its callers and recovers", async () => {
    const root = join(base, "failing");
    let fail = true;
    const directories = createDirectorySync(root, { fsyncDirectory: () => (fail ? Promise.reject(new Error("EIO")) : Promise.resolve()) });
    await assert.rejects(directories.sync(root), /EIO/);
    fail = false;
    await directories.sync(root);
  });

  it("creates a forgotten folder again", async () => {
    const root = join(base, "forget");
    const { fsync, calls } = recordingFsync();
    const directories = createDirectorySync(root, { fsyncDirectory: fsync });
    const leaf = join(root, "gone", "deeper");
    await (
      await directories.ensure(leaf)
    ).durable;
    await rm(join(root, "gone"), { recursive: true });
    directories.forget(join(root, "gone"));
    calls.length = 0;
    await (
      await directories.ensure(leaf)
    ).durable;
    assert.ok((await stat(leaf)).isDirectory());
    assert.deepEqual([...calls].sort(), [root, join(root, "gone")].sort());
  });

  it("remembers at most maxKnown folders, the least recently used going first", async () => {
    const root = join(base, "bounded");
    const { fsync, calls } = recordingFsync();
    const directories = createDirectorySync(root, { fsyncDirectory: fsync, maxKnown: 3 });
    const folder = (name: string): string => join(root, name);
    for (const directory of [folder("a"), folder("b"), root, folder("a"), folder("c")]) await (await directories.ensure(directory)).durable;
    calls.length = 0;
    await (
      await directories.ensure(folder("a"))
    ).durable;
    assert.deepEqual(calls, [], "a, recently used, is still known");
    await (
      await directories.ensure(folder("b"))
    ).durable;
    assert.deepEqual(calls, [root], "b was forgotten first and is synced again");
  });
});
