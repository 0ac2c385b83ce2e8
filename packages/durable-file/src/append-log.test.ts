import assert from "node:assert/strict";
import { appendFile, copyFile, mkdtemp, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it, mock } from "node:test";
import { isAppError } from "@loupe/errors";
import { AppendLog, PREALLOCATE_BYTES } from "./append-log.js";
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

  it("keeps zeros ahead of its lines while open, which a reader of the file as a crash left it stops at", async () => {
    const path = join(directory, "ahead");
    const { log } = await AppendLog.open(path);
    for (let index = 0; index < 20; index++) await log.append(`{"n":${String(index)}}`);
    // The file is longer than its lines: the next appends overwrite zeros (no change of size to sync).
    const lineBytes = log.sizeBytes;
    assert.ok((await stat(path)).size >= PREALLOCATE_BYTES && (await stat(path)).size > lineBytes);
    // What a crash leaves on disk: the file as it is now, copied while the log is open.
    await copyFile(path, `${path}.crash`);
    const recovered = await AppendLog.open(`${path}.crash`);
    assert.equal(recovered.lines.length, 20);
    assert.equal(recovered.log.sizeBytes, lineBytes);
    await recovered.log.append("after");
    await recovered.log.close();
    assert.equal(await readFile(`${path}.crash`, "utf8"), [...Array.from({ length: 20 }, (_, n) => `{"n":${String(n)}}`), "after", ""].join("\n"));
    // A clean close cuts the zeros off.
    await log.close();
    assert.equal((await stat(path)).size, lineBytes);
  });

  it("grows its zeros when the lines reach them, in the same sync", async () => {
    const path = join(directory, "grow");
    const { log } = await AppendLog.open(path);
    const big = "x".repeat(PREALLOCATE_BYTES / 4);
    for (let index = 0; index < 10; index++) await log.append(big);
    assert.ok((await stat(path)).size > log.sizeBytes, "zeros follow the lines");
    await copyFile(path, `${path}.crash`);
    const recovered = await AppendLog.open(`${path}.crash`);
    assert.equal(recovered.lines.length, 10);
    assert.ok(recovered.lines.every((line) => line === big));
    await recovered.log.close();
    await log.close();
  });

  it("ends the lines at the first zero byte: a line after it was never acknowledged", async () => {
    const path = join(directory, "torn-zeros");
    // A crash mid-write of lines over zeros can leave a later block written and an earlier one not.
    await writeFile(path, Buffer.concat([Buffer.from("one\ntwo\npart"), Buffer.alloc(64), Buffer.from("later\n"), Buffer.alloc(64)]));
    const { log, lines } = await AppendLog.open(path);
    assert.deepEqual(lines, ["one", "two"]);
    await log.append("three");
    await log.close();
    assert.equal(await readFile(path, "utf8"), "one\ntwo\nthree\n");
  });

  it("refuses a line holding a newline or a zero byte, and goes on", async () => {
    const path = join(directory, "refused");
    const { log } = await AppendLog.open(path);
    await assert.rejects(log.append("a\u0000b"), (error: unknown) => isAppError(error) && error.code === "internal");
    await assert.rejects(log.append("a\nb"), (error: unknown) => isAppError(error) && error.code === "internal");
    await log.append("ok");
    await log.close();
    assert.equal(await readFile(path, "utf8"), "ok\n");
  });

  it("cuts a failed write off, with the zeros it had grown, and the next append follows the last acknowledged line", async () => {
    const path = join(directory, "failed");
    const { log } = await AppendLog.open(path);
    await log.append("one");
    const handle = await open(path, "r");
    const prototype = Object.getPrototypeOf(handle) as { datasync: () => Promise<void> };
    await handle.close();
    const failing = mock.method(prototype, "datasync", () => Promise.reject(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" })));
    try {
      // Long enough to reach past the zeros: the failed batch had grown the file too.
      await assert.rejects(log.append("x".repeat(PREALLOCATE_BYTES)), (error: unknown) => isAppError(error) && error.code === "unavailable");
    } finally {
      failing.mock.restore();
    }
    assert.equal((await stat(path)).size, 4, "the failed batch and its zeros are cut off");
    await log.append("two");
    await copyFile(path, `${path}.crash`);
    const recovered = await AppendLog.open(`${path}.crash`);
    assert.deepEqual(recovered.lines, ["one", "two"]);
    await recovered.log.close();
    await log.close();
    assert.equal(await readFile(path, "utf8"), "one\ntwo\n");
  });
});
