import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot, startLoupeProcess } from "@loupe/testing";
import { runProgram } from "../support/agent-session.js";

interface NoteTotals {
  trajectories: number;
  compactedTrajectories: number;
  compactions: number;
  prepared: number;
  noteTokens: number;
  coveredTokens: number;
  items: number;
  found: Record<"note" | "kept" | "address" | "search" | "lost", number>;
  recentTurns: number;
}
interface CompactionScore {
  afterRow: number;
  path: string;
  items: number;
  found: NoteTotals["found"];
  citedAddresses: number;
  lostSample: string[];
}
interface NotesJson {
  notes: Array<{ windowTokens: number; pooled: NoteTotals; compactions: CompactionScore[] }>;
}

const run = (program: string, args: readonly string[]) => runProgram(program, args, repoRoot());

// A script that parses records, then fails: the error a later step comes back to. It throws once its records
// are written (a process that dies right after console.log into a pipe can lose what the pipe had not taken).
const FAILING_SCRIPT = `
let out = "";
for (let i = 1; i <= 400; i++) out += "record " + String(i).padStart(4, "0") + " parsed ok (checksum " + String((i * 7919) % 100000) + ")\\n";
function checkRecordLimit(count) { if (count >= 400) throw new RangeError("record_limit exceeded at " + count); }
process.stdout.write(out, () => checkRecordLimit(400));
`;

describe("loupe eval --notes", () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-eval-notes-"));
    const failing = run(process.execPath, ["-e", FAILING_SCRIPT]);
    const listing = run("ls", ["-R", "packages/projection/src"]);
    const source = run("cat", ["packages/projection/src/cut/head-tail-cut.ts"]);
    const version = run(process.execPath, ["--version"]);
    assert.ok(failing.exitCode === 1 && listing.output.length > 3000 && source.output.length > 1000, "real outputs");
    const calls: ReadonlyArray<readonly [string, { output: string; exitCode: number }, string]> = [
      ["node parse.js", failing, "The parser stops early.\n[bash] ls -R packages/projection/src"],
      ["ls -R packages/projection/src", listing, "The cut lives in the cut folder.\n[bash] cat packages/projection/src/cut/head-tail-cut.ts"],
      ["cat packages/projection/src/cut/head-tail-cut.ts", source, "Noted the cut. Check the runtime.\n[bash] node --version"],
      ["node --version", version, "Look at the listing again.\n[bash] ls -R packages/projection/src"],
      ["ls -R packages/projection/src", listing, "And the file once more.\n[bash] cat packages/projection/src/cut/head-tail-cut.ts"],
      ["cat packages/projection/src/cut/head-tail-cut.ts", source, "Enough reading.\n[bash] node --version"],
      ["node --version", version, "Back to the failure: checkRecordLimit threw a RangeError, record_limit exceeded.\n[bash] node parse.js --limit 1000"],
      ["node parse.js --limit 1000", { output: "ok\n", exitCode: 0 }, "Fixed."],
    ];
    const lines = calls.map(([command, result, nextAction], index) =>
      JSON.stringify({
        agent_system: "fixture",
        trajectory_id: "n1",
        step: index + 1,
        task: "find why the parser fails",
        tool: "bash",
        args: { command },
        output: result.output,
        exit_code: result.exitCode,
        next_action: nextAction,
      }),
    );
    await writeFile(join(dir, "trajectory.jsonl"), lines.join("\n") + "\n");
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("replays a trajectory as turns, compacts when Loupe says so, and finds the error a later step uses in the note", { timeout: 120_000 }, async () => {
    const html = join(dir, "notes.html");
    const loupe = startLoupeProcess(["eval", "--corpus", join(dir, "trajectory.jsonl"), "--notes", "6000", "--json", "--html", html], {});
    const code = await loupe.exited;
    assert.equal(code, 0, loupe.lines.slice(-20).join("\n"));
    const json = loupe.lines.find((line) => line.startsWith("{"));
    assert.ok(json !== undefined, "one JSON line on stdout");
    const [notes] = (JSON.parse(json) as NotesJson).notes;
    assert.ok(notes !== undefined);
    assert.equal(notes.windowTokens, 6000);
    const { pooled } = notes;
    assert.equal(pooled.compactedTrajectories, 1);
    assert.ok(pooled.compactions >= 1 && pooled.prepared === pooled.compactions, `every compaction PREPARED from the worker's note: ${JSON.stringify(pooled)}`);
    assert.ok(pooled.noteTokens > 0 && pooled.coveredTokens > pooled.noteTokens, "a note stands for more tokens than it takes");
    const found = Object.values(pooled.found).reduce((total, count) => total + count, 0);
    assert.equal(found, pooled.items, "every item is placed once");
    // The last action goes back to the first output's error: it was compacted away, and the note keeps it.
    const last = notes.compactions.at(-1)!;
    assert.ok(last.items >= 2, JSON.stringify(last));
    assert.ok(last.found.note >= 2, `the error and its function are in the note: ${JSON.stringify(last)}`);
    assert.equal(last.found.lost, 0, JSON.stringify(last));
    const page = await readFile(html, "utf8");
    assert.match(page, /<svg /);
    assert.match(page, /6,000-token window/);
    assert.match(page, /in the note/);
  });

  it("refuses a window out of range before reading anything", async () => {
    const loupe = startLoupeProcess(["eval", "--corpus", join(dir, "trajectory.jsonl"), "--notes", "100"], {});
    assert.notEqual(await loupe.exited, 0);
    assert.ok(
      loupe.lines.some((line) => line.includes("--notes takes context windows")),
      loupe.lines.join("\n"),
    );
  });
});
