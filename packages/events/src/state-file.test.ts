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

  it("flush() starts a waiting write at once", async () => {
    const path = await statePath();
    const file = new StateFile(path, 60_000);
    file.write(() => JSON.stringify({ done: true }));
    await file.flush();
    assert.deepEqual(await StateFile.read(path), { done: true });
  });
});
