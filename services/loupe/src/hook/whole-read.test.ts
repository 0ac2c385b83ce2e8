import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { wholeRead } from "./whole-read.js";

// A 3,000-line file with a final newline: Claude Code counts it as 3,001 lines.
const LINES = Array.from({ length: 3000 }, (_, index) => `const value_${String(index + 1)} = compute(${String(index + 1)});`);
const TEXT = `${LINES.join("\n")}\n`;
const slice = (from: number, count: number): string => LINES.slice(from - 1, from - 1 + count).join("\n");

describe("wholeRead()", () => {
  let dir: string;
  let path: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-whole-read-"));
    path = join(dir, "big.ts");
    await writeFile(path, TEXT);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const report = (file: Record<string, unknown>, args: Record<string, unknown> = {}, maxBytes = 1 << 20) => ({
    file: { filePath: path, totalLines: 3001, ...file },
    args: { file_path: path, ...args },
    cwd: dir,
    maxBytes,
  });

  it("reads the rest of the file when the runtime paged a read that asked for all of it", async () => {
    const whole = await wholeRead(report({ content: slice(1, 1434), numLines: 1434, startLine: 1 }));
    assert.equal(whole, TEXT);
  });

  it("reads up to the call's limit from its offset, and no further", async () => {
    const whole = await wholeRead(report({ content: slice(1001, 700), numLines: 700, startLine: 1001 }, { offset: 1001, limit: 1500 }));
    assert.equal(whole, slice(1001, 1500));
  });

  it("finds a relative path in the session's folder", async () => {
    const whole = await wholeRead(report({ filePath: "big.ts", content: slice(1, 2000), numLines: 2000, startLine: 1 }, { file_path: "big.ts" }));
    assert.equal(whole, TEXT);
  });

  it("is undefined when nothing was cut, the file changed, is too large, is gone, or the report is not a read", async () => {
    assert.equal(await wholeRead(report({ content: slice(1, 100), numLines: 100, startLine: 1 }, { limit: 100 })), undefined);
    assert.equal(await wholeRead(report({ content: TEXT, numLines: 3001, startLine: 1 })), undefined);
    const edited = `${slice(1, 9)}\nchanged\n${slice(11, 1424)}`;
    assert.equal(await wholeRead(report({ content: edited, numLines: 1434, startLine: 1 })), undefined, "the lines given differ from the file's");
    assert.equal(await wholeRead(report({ content: slice(1, 1434), numLines: 1434, startLine: 1, totalLines: 4000 })), undefined, "the file's length changed");
    assert.equal(await wholeRead(report({ content: slice(1, 1434), numLines: 1434, startLine: 1 }, {}, 1000)), undefined, "over maxBytes");
    assert.equal(await wholeRead(report({ filePath: join(dir, "gone.ts"), content: slice(1, 1434), numLines: 1434, startLine: 1 })), undefined);
    assert.equal(await wholeRead(report({ filePath: dir, content: slice(1, 1434), numLines: 1434, startLine: 1 })), undefined, "a folder");
    assert.equal(await wholeRead(report({ content: slice(1, 1434), numLines: "1434", startLine: 1 })), undefined);
  });
});
