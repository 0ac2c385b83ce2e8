import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openCodeWholeRead } from "./opencode-read.js";

const LINES = Array.from({ length: 3000 }, (_, index) =>
  index === 99 ? "x".repeat(2500) : `const value_${String(index + 1)} = compute(${String(index + 1)});`,
);
const shown = (n: number): string => {
  const line = LINES[n - 1] ?? "";
  return `${String(n)}: ${line.length > 2000 ? `${line.slice(0, 2000)}... (line truncated to 2000 chars)` : line}`;
};
const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, index) => shown(from + index));

// OpenCode's read answer, as it prints it: its lines, a blank line, its footer, then `</content>` and what follows.
const answer = (path: string, lines: readonly string[], footer: string, after = ""): string =>
  `<path>${path}</path>\n<type>file</type>\n<content>\n${lines.join("\n")}\n\n${footer}\n</content>${after}`;

describe("openCodeWholeRead()", () => {
  let dir: string;
  let path: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-opencode-read-"));
    path = join(dir, "big.ts");
    await writeFile(path, `${LINES.join("\n")}\n`);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads the rest of a read OpenCode capped at 50 KB, in OpenCode's own form, to the file's end", async () => {
    const capped = answer(
      path,
      range(1, 934),
      "(Output capped at 50 KB. Showing lines 1-934. Use offset=935 to continue.)",
      "\n<system-reminder>\nkept\n</system-reminder>",
    );
    const whole = await openCodeWholeRead({ filePath: path }, capped, 1 << 20);
    assert.equal(whole, answer(path, range(1, 3000), "(End of file - total 3000 lines)", "\n<system-reminder>\nkept\n</system-reminder>"));
  });

  it("reads to the call's limit from its offset when the cap cut it, and past OpenCode's 2,000 lines only when the call named no limit", async () => {
    const capped = answer(path, range(1001, 1800), "(Output capped at 50 KB. Showing lines 1001-1800. Use offset=1801 to continue.)");
    assert.equal(
      await openCodeWholeRead({ filePath: path, offset: 1001, limit: 1500 }, capped, 1 << 20),
      answer(path, range(1001, 2500), "(Showing lines 1001-2500 of 3000. Use offset=2501 to continue.)"),
    );
    const paged = answer(path, range(1, 2000), "(Showing lines 1-2000 of 3000. Use offset=2001 to continue.)");
    assert.equal(await openCodeWholeRead({ filePath: path }, paged, 1 << 20), answer(path, range(1, 3000), "(End of file - total 3000 lines)"));
    assert.equal(await openCodeWholeRead({ filePath: path, limit: 2000 }, paged, 1 << 20), undefined, "the agent asked for 2,000 lines");
  });

  it("is undefined for a whole read, another answer, a changed or too large file", async () => {
    assert.equal(await openCodeWholeRead({}, answer(path, range(2990, 3000), "(End of file - total 3000 lines)"), 1 << 20), undefined);
    assert.equal(await openCodeWholeRead({}, "Found 2 matches\n", 1 << 20), undefined);
    const capped = answer(path, range(1, 934), "(Output capped at 50 KB. Showing lines 1-934. Use offset=935 to continue.)");
    assert.equal(await openCodeWholeRead({}, capped.replace("5: const value_5", "5: const value_five"), 1 << 20), undefined);
    assert.equal(await openCodeWholeRead({}, capped, 1000), undefined);
    assert.equal(await openCodeWholeRead({}, capped.replace(path, join(dir, "gone.ts")), 1 << 20), undefined);
  });
});
