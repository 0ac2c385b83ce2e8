import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { chooseLocalBackend } from "./local-backend.js";

describe("chooseLocalBackend()", () => {
  const made: string[] = [];
  const dataDir = async (...folders: string[]): Promise<string> => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-backend-"));
    made.push(directory);
    for (const folder of folders) await mkdir(join(directory, folder));
    return directory;
  };
  after(() => Promise.all(made.map((directory) => rm(directory, { recursive: true, force: true }))));

  it("keeps the files of a data dir that has them (what an earlier Loupe saved stays readable)", async () => {
    assert.equal(await chooseLocalBackend(await dataDir("archive", "state")), "fs");
  });

  it("keeps the LMDB database of a data dir that has one", async () => {
    assert.equal(await chooseLocalBackend(await dataDir("archive-lmdb")), "lmdb");
  });

  it("starts a new data dir (or one that does not exist yet) on LMDB, where it loads", async () => {
    assert.equal(await chooseLocalBackend(await dataDir()), "lmdb");
    assert.equal(await chooseLocalBackend(join(await dataDir(), "not-yet")), "lmdb");
  });
});
