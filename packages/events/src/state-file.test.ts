import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { StateFile } from "./state-file.js";

const scratch: string[] = [];
after(async () => {
  for (const directory of scratch) await rm(directory, { recursive: true, force: true });
});

async function statePath(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "loupe-state-file-"));
  scratch.push(directory);
  return join(directory, "state.json");
}

describe("StateFile", () => {
  it("without a delay, writes at once; requests made while a write is on disk collapse into one more", async () => {
    const path = await statePath();
    const file = new StateFile(path);
    let snapshots = 0;
    for (let index = 0; index < 10; index++) {
      file.write(() => {
        snapshots++;
        return JSON.stringify({ index });
      });
    }
    await file.flush();
    assert.deepEqual(await StateFile.read(path), { index: 9 });
    assert.ok(snapshots <= 2, `${String(snapshots)} snapshots for 10 requests`);
  });

  it("with a delay, requests within it make one write of the newest snapshot", async () => {
    const path = await statePath();
    const file = new StateFile(path, 50);
    let snapshots = 0;
    for (let index = 0; index < 10; index++) {
      file.write(() => {
        snapshots++;
        return JSON.stringify({ index });
      });
    }
    assert.equal(await StateFile.read(path), undefined, "nothing written before the delay");
    await sleep(200);
    assert.deepEqual(await StateFile.read(path), { index: 9 }, "written after the delay without a flush");
    assert.equal(snapshots, 1);
    await file.flush();
  });

  it("under a steady run of requests, writes once per delay, not one write after another", async () => {
    const path = await statePath();
    const file = new StateFile(path, 100);
    let snapshots = 0;
    const started = performance.now();
    for (let index = 0; performance.now() - started < 500; index++) {
      file.write(() => {
        snapshots++;
        return JSON.stringify({ index });
      });
      await sleep(2);
    }
    const elapsed = performance.now() - started;
    // One write per 100 ms and a write's time: at most one more than the delays that fit.
    assert.ok(snapshots <= Math.ceil(elapsed / 100) + 1, `${String(snapshots)} writes in ${elapsed.toFixed(0)} ms`);
    assert.ok(snapshots >= 2, "writes go on while requests keep coming");
    await file.flush();
    const last = (await StateFile.read(path)) as { index: number };
    file.write(() => JSON.stringify({ index: last.index + 1 }));
    await file.flush();
    assert.deepEqual(await StateFile.read(path), { index: last.index + 1 }, "flush leaves nothing requested unwritten");
  });

  it("flush() during a write also writes what was requested meanwhile, without waiting for the delay", async () => {
    const path = await statePath();
    const file = new StateFile(path, 60_000);
    file.write(() => JSON.stringify({ step: 1 }));
    const flushed = file.flush();
    file.write(() => JSON.stringify({ step: 2 }));
    await flushed;
    await file.flush();
    assert.deepEqual(await StateFile.read(path), { step: 2 });
  });

  it("flush() starts a waiting write at once", async () => {
    const path = await statePath();
    const file = new StateFile(path, 60_000);
    file.write(() => JSON.stringify({ done: true }));
    await file.flush();
    assert.deepEqual(await StateFile.read(path), { done: true });
  });
});
