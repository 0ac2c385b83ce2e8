import assert from "node:assert/strict";
import { appendFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { AppendLog } from "./append-log.js";
import { writeFileDurably } from "./write-file-durably.js";

describe("AppendLog", () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "loupe-append-log-"));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  it("group-commits concurrent appends, each resolving once on disk, onDurable in log order", async () => {
    const { log, lines } = await AppendLog.open(join(directory, "a", "log"));
    assert.deepEqual(lines, []);
    const seen: number[] = [];
    await Promise.all(Array.from({ length: 50 }, (_, index) => log.append(`{"n":${String(index)}}`, () => seen.push(index))));
    assert.deepEqual(
      seen,
      Array.from({ length: 50 }, (_, index) => index),
    );
    await log.close();
    const again = await AppendLog.open(join(directory, "a", "log"));
    assert.equal(again.lines.length, 50);
    await again.log.close();
  });

  it("cuts off a torn last line (a crash mid-append) and keeps appending after the last whole line", async () => {
    const path = join(directory, "torn");
    await writeFileDurably(path, "one\ntwo\nthr");
    const { log, lines } = await AppendLog.open(path);
    assert.deepEqual(lines, ["one", "two"]);
    await log.append("three");
    await log.close();
    assert.equal(await readFile(path, "utf8"), "one\ntwo\nthree\n");
  });

  it("rewrites atomically, in order with appends", async () => {
    const path = join(directory, "rewrite");
    const { log } = await AppendLog.open(path);
    await Promise.all([log.append("a"), log.append("b"), log.rewrite(() => ["only"]), log.append("c")]);
    await log.close();
    assert.equal(await readFile(path, "utf8"), "only\nc\n");
  });

  it("reads lines appended by another writer before it opened", async () => {
    const path = join(directory, "foreign");
    await appendFile(path, "x\ny\n");
    const { log, lines } = await AppendLog.open(path);
    assert.deepEqual(lines, ["x", "y"]);
    assert.equal(log.sizeBytes, 4);
    await log.close();
  });
});
