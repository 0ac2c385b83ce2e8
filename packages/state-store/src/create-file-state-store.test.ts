import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { isAppError } from "@loupe/errors";
import { createFileStateStore } from "./create-file-state-store.js";
import { describeStateStoreContract } from "./testing/state-store-contract.js";

const root = await mkdtemp(join(tmpdir(), "loupe-state-"));
let directories = 0;
const freshDirectory = (): string => join(root, `store-${(directories += 1)}`);
after(() => rm(root, { recursive: true, force: true }));

describeStateStoreContract("createFileStateStore()", () => createFileStateStore({ directory: freshDirectory() }));

describe("createFileStateStore() persistence", () => {
  it("keeps every kind of write across close and reopen", async () => {
    const directory = freshDirectory();
    const first = await createFileStateStore({ directory });
    await first.set("plain", "v1");
    await first.set("ttl", "v2", { ttlMs: 60_000 });
    await first.set("gone", "x");
    await first.delete("gone");
    await first.set("p:1", "x");
    await first.set("p:2", "x");
    await first.deletePrefix("p:");
    assert.equal(await first.compareAndSet("cas", undefined, "won"), true);
    await first.increment("counter", 41);
    await first.increment("counter", 1);
    await first.close();

    const second = await createFileStateStore({ directory });
    assert.equal(await second.get("plain"), "v1");
    assert.equal(await second.get("ttl"), "v2");
    const remainingMs = await second.ttlMs("ttl");
    assert.ok(remainingMs !== undefined && remainingMs > 50_000 && remainingMs <= 60_000);
    assert.equal(await second.get("gone"), undefined);
    assert.equal(await second.get("p:1"), undefined);
    assert.equal(await second.get("cas"), "won");
    assert.equal(await second.get("counter"), "42");
    await second.close();
  });

  it("lets keys expire while the store is closed", async () => {
    const directory = freshDirectory();
    const first = await createFileStateStore({ directory });
    await first.set("short", "v", { ttlMs: 50 });
    await first.close();
    await sleep(120);
    const second = await createFileStateStore({ directory });
    assert.equal(await second.get("short"), undefined);
    await second.close();
  });

  it("keeps acknowledged writes when the process is killed, and takes over its stale lock", async () => {
    const directory = freshDirectory();
    const moduleUrl = pathToFileURL(join(import.meta.dirname, "create-file-state-store.ts")).href;
    const script = `
      const { createFileStateStore } = await import(${JSON.stringify(moduleUrl)});
      const store = await createFileStateStore({ directory: ${JSON.stringify(directory)} });
      for (let index = 0; index < 20; index += 1) await store.set("k" + index, "v" + index);
      await store.increment("n", 7);
      process.kill(process.pid, "SIGKILL");`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: "inherit" });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, exitSignal) => resolve(exitSignal)));
    assert.equal(signal, "SIGKILL");
    assert.ok((await readFile(join(directory, "state.lock"), "utf8")).length > 0, "the killed process left its lock");

    const store = await createFileStateStore({ directory });
    for (let index = 0; index < 20; index += 1) assert.equal(await store.get(`k${index}`), `v${index}`);
    assert.equal(await store.get("n"), "7");
    await store.close();
  });

  it("ignores a torn last journal line", async () => {
    const directory = freshDirectory();
    const first = await createFileStateStore({ directory });
    await first.set("k", "v");
    await first.close();
    await appendFile(join(directory, "state.journal"), '{"op":"set","key":"k","val');
    const second = await createFileStateStore({ directory });
    assert.equal(await second.get("k"), "v");
    await second.set("after", "ok");
    await second.close();
    const third = await createFileStateStore({ directory });
    assert.equal(await third.get("after"), "ok");
    await third.close();
  });

  it("refuses a corrupt journal instead of guessing", async () => {
    const directory = freshDirectory();
    await (await createFileStateStore({ directory })).close();
    await writeFile(join(directory, "state.journal"), 'not json\n{"op":"delete","key":"k"}\n');
    await assert.rejects(createFileStateStore({ directory }), (error: unknown) => isAppError(error) && error.code === "internal");
  });

  it("compacts a growing journal into the snapshot without losing anything", async () => {
    const directory = freshDirectory();
    const store = await createFileStateStore({ directory });
    const value = "v".repeat(100_000);
    for (let index = 0; index < 60; index += 1) await store.set(`k${index % 10}`, `${index}:${value}`);
    assert.ok((await stat(join(directory, "state.journal"))).size < 4 << 20, "the journal was compacted");
    await store.close();
    const reopened = await createFileStateStore({ directory });
    for (let index = 50; index < 60; index += 1) assert.equal(await reopened.get(`k${index % 10}`), `${index}:${value}`);
    await reopened.close();
  });

  it("reports a directory it cannot create as unavailable", async () => {
    const file = join(root, "a-file");
    await writeFile(file, "");
    await assert.rejects(
      createFileStateStore({ directory: join(file, "state") }),
      (error: unknown) => isAppError(error) && error.code === "unavailable" && error.message.startsWith("state directory cannot be opened"),
    );
  });

  it("refuses a directory that is already open", async () => {
    const directory = freshDirectory();
    const store = await createFileStateStore({ directory });
    await assert.rejects(createFileStateStore({ directory }), (error: unknown) => isAppError(error) && error.code === "failed_precondition");
    await store.close();
    await (await createFileStateStore({ directory })).close();
  });
});

describe("createFileStateStore() reads", () => {
  it("answers a read of a key only once the write of it in flight is durable, so nothing a reader saw is lost by a crash", async () => {
    const store = await createFileStateStore({ directory: freshDirectory() });
    try {
      for (const write of [
        () => store.set("k", "v1"),
        () => store.compareAndSet("k", "v1", "v2"),
        () => store.increment("n", 1),
        () => store.delete("k"),
        () => store.deletePrefix("k"),
      ]) {
        const order: string[] = [];
        const written = write().then(() => order.push("written"));
        const read = Promise.all([store.get("k"), store.get("n"), store.ttlMs("k")]).then(() => order.push("read"));
        await Promise.all([written, read]);
        assert.deepEqual(order, ["written", "read"], String(write));
      }
      assert.equal(await store.get("n"), "1");
    } finally {
      await store.close();
    }
  });

  it("does not make a read of another key wait", async () => {
    const store = await createFileStateStore({ directory: freshDirectory() });
    try {
      await store.set("other", "o");
      const order: string[] = [];
      const written = store.set("k", "v").then(() => order.push("written"));
      const read = store.get("other").then(() => order.push("read"));
      await Promise.all([written, read]);
      assert.deepEqual(order, ["read", "written"]);
    } finally {
      await store.close();
    }
  });
});
