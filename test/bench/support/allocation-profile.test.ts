import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { summarizeAllocations, type AllocationNode } from "./allocation-profile.js";

// A script that allocates most in one function, called from another, then exits.
const ALLOCATE = `
function fill(n) { const kept = []; for (let i = 0; i < n; i++) kept.push(new Array(64).fill(i)); return kept.length; }
function outer() { let total = 0; for (let round = 0; round < 40; round++) total += fill(2000); return total; }
outer();
`;

describe("allocation profile summaries", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-allocations-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("put a real process's allocations in the function that made them, under its caller, as sample-allocations.mjs writes them", async () => {
    const script = join(dir, "allocate.mjs");
    await writeFile(script, ALLOCATE);
    const sampler = new URL("./sample-allocations.mjs", import.meta.url).pathname;
    execFileSync(process.execPath, ["--import", sampler, script], { env: { ...process.env, LOUPE_ALLOCATIONS_DIR: dir } });
    const files = (await readdir(dir)).filter((name) => /^allocations\.\d+\.json$/.test(name));
    assert.equal(files.length, 1, "one profile written at exit");
    const summary = summarizeAllocations(JSON.parse(await readFile(join(dir, files[0] ?? ""), "utf8")) as { head: AllocationNode });
    const fill = summary.functions.find((line) => line.name === "fill allocate.mjs:2");
    assert.ok(fill !== undefined && fill.bytes > 0.5 * summary.totalBytes, `fill allocated most of ${String(summary.totalBytes)} bytes`);
    assert.ok(summary.chains.some((line) => line.name.startsWith("fill allocate.mjs:2  <-  outer allocate.mjs:3")));
    // A sample can land in outer or the module's top level too: the module holds exactly its functions' bytes.
    const inModule = summary.functions.filter((line) => line.name.includes(" allocate.mjs:"));
    assert.equal(
      summary.modules.find((line) => line.name === "allocate.mjs")?.bytes,
      inModule.reduce((sum, line) => sum + line.bytes, 0),
    );
  });
});
