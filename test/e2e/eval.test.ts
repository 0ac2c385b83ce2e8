import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { repoRoot, startLoupeProcess } from "@loupe/testing";
import { runProgram } from "../support/agent-session.js";

interface Totals {
  historyTokens: number;
  firstViewTokens: number;
  evidence: number;
  inView: number;
  reachable: number;
  cutOutputs: number;
}
interface Report {
  trajectories: number;
  systems: string[];
  policies: Array<{ policy: string; pooled: Totals; bySystem: Record<string, Totals> }>;
}

const run = (program: string, args: readonly string[]) => runProgram(program, args, repoRoot());

// A script that parses records, then fails: a long real output with the error at the end. It throws once
// its records are written: a process that dies of an uncaught error right after console.log into a pipe
// loses what the pipe had not taken yet (7 runs in 40 here lost the middle record the checks below need).
const FAILING_SCRIPT = `
let out = "";
for (let i = 1; i <= 1500; i++) out += "record " + String(i).padStart(4, "0") + " parsed ok (checksum " + String((i * 7919) % 100000) + ")\\n";
function checkRecordLimit(count) { if (count >= 1500) throw new RangeError("record_limit exceeded at " + count); }
process.stdout.write(out, () => checkRecordLimit(1500));
`;

/** A name of a .ts file listed in the middle of an `ls -R` output (outside its first and last 10,000 characters). */
function middleFile(listing: string): string {
  const middle = listing.slice(10_000, listing.length - 10_000).split("\n");
  const name = middle.find((line) => /^[a-z][\w-]+\.ts$/.test(line) && listing.indexOf(line) > 10_000);
  assert.ok(name !== undefined, "the listing names a .ts file in its middle");
  return name;
}

describe("loupe eval", () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-eval-e2e-"));
    // A tree of its own to list, so the listing is the same whatever the checkout holds meanwhile.
    for (let folder = 0; folder < 80; folder++) {
      const path = join(dir, "tree", `feature-${String(folder)}`);
      await mkdir(path, { recursive: true });
      await Promise.all(Array.from({ length: 30 }, (_, index) => writeFile(join(path, `module-${String(folder)}-${String(index)}.ts`), "")));
    }
    const listing = runProgram("ls", ["-R", "tree"], dir);
    const small = run("ls", ["-R", "packages/projection/src/cut"]);
    const failing = run(process.execPath, ["-e", FAILING_SCRIPT]);
    const version = run(process.execPath, ["--version"]);
    assert.ok(listing.output.length > 30_000 && failing.exitCode === 1, "real outputs: a long listing and a failing script");
    // The evidence a recovery must reach sits in the failing script's middle: its output is whole.
    assert.ok(failing.output.includes("record 0750 parsed ok") && failing.output.includes("RangeError: record_limit exceeded"), failing.output.slice(-500));
    const file = middleFile(listing.output);
    const rows = (system: string, id: string, calls: ReadonlyArray<readonly [string, { output: string; exitCode: number }, string]>): string[] =>
      calls.map(([command, result, nextAction], index) =>
        JSON.stringify({
          source: "loupe/e2e",
          agent_system: system,
          trajectory_id: id,
          step: index + 1,
          task: "find why the parser fails",
          tool: "bash",
          args: { command },
          output: result.output,
          exit_code: result.exitCode,
          next_action: nextAction,
          tool_detail: command.split(" ")[0],
          output_complete: true,
        }),
      );
    const lines = [
      ...rows("fixture-a", "a1", [
        ["ls -R tree", listing, `The module ${file} looks relevant.\n[bash] grep -n cut ${file}`],
        [
          "node -e …",
          failing,
          "The RangeError says record_limit exceeded; record 0750 had checksum " + String((750 * 7919) % 100000) + ".\n[bash] node --version",
        ],
        ["node --version", version, "Done."],
      ]),
      ...rows("fixture-b", "b1", [
        ["ls -R packages/projection/src/cut", small, "Open head-tail-cut.ts next.\n[bash] cat head-tail-cut.ts"],
        ["node -e …", failing, "checkRecordLimit threw a RangeError.\n[bash] echo done"],
      ]),
    ];
    await writeFile(join(dir, "fixture.jsonl.gz"), gzipSync(lines.join("\n") + "\n"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("replays the corpus under every policy through an embedded Loupe and writes JSON and HTML", { timeout: 60_000 }, async () => {
    const html = join(dir, "r.html");
    const loupe = startLoupeProcess(["eval", "--corpus", join(dir, "fixture.jsonl.gz"), "--json", "--html", html], {});
    const code = await loupe.exited;
    assert.equal(code, 0, loupe.lines.slice(-20).join("\n"));
    const json = loupe.lines.find((line) => line.startsWith("{"));
    assert.ok(json !== undefined, "one JSON line on stdout");
    const report = JSON.parse(json) as Report;
    assert.equal(report.trajectories, 2);
    assert.deepEqual(report.systems, ["fixture-a", "fixture-b"]);
    const byName = new Map(report.policies.map((policy) => [policy.policy, policy.pooled]));
    for (const name of ["none", "codex", "claude-code", "gemini-cli", "opencode", "seed-rule", "loupe", "loupe:budget=1000"]) assert.ok(byName.has(name), name);
    const none = byName.get("none")!;
    const loupeTotals = byName.get("loupe")!;
    assert.ok(none.evidence >= 5, `evidence found: ${String(none.evidence)}`);
    assert.equal(none.inView, none.evidence, "none keeps all evidence in view");
    for (const [name, totals] of byName) assert.ok(totals.historyTokens <= none.historyTokens, `none carries the most (${name})`);
    assert.ok(loupeTotals.historyTokens < none.historyTokens, "loupe carries fewer tokens than none");
    assert.ok(loupeTotals.reachable >= loupeTotals.inView);
    const loupeReport = report.policies.find((policy) => policy.policy === "loupe");
    assert.ok(
      loupeTotals.inView < loupeTotals.evidence && loupeTotals.reachable > loupeTotals.inView,
      `a recovery reaches evidence the first view left out: ${JSON.stringify(loupeReport?.bySystem)}`,
    );
    const page = await readFile(html, "utf8");
    assert.match(page, /<svg /);
    assert.match(page, /fixture-a/);
  });

  it("compares a policy with its blind cut, in the JSON and the tables", { timeout: 60_000 }, async () => {
    const run = async (json: boolean): Promise<string[]> => {
      const loupe = startLoupeProcess(["eval", "--corpus", join(dir, "fixture.jsonl.gz"), "--policy", "core,blind:core", ...(json ? ["--json"] : [])], {});
      assert.equal(await loupe.exited, 0, loupe.lines.slice(-20).join("\n"));
      return loupe.lines;
    };
    const report = JSON.parse((await run(true)).find((line) => line.startsWith("{")) ?? "{}") as {
      policies: Array<{ policy: string; pooled: { long: { evidence: number; inView: number } } }>;
      againstBlind: Array<{ policy: string; all: { items: number; difference: number; low: number; high: number } }>;
    };
    const long = (name: string): { evidence: number; inView: number } => report.policies.find((policy) => policy.policy === name)!.pooled.long;
    assert.equal(report.againstBlind.length, 1);
    const [comparison] = report.againstBlind;
    assert.equal(comparison?.policy, "core");
    assert.ok(long("core").evidence > 0, "the fixture has evidence in outputs over 8,000 characters");
    assert.equal(comparison.all.items, long("core").evidence);
    assert.equal(comparison.all.difference, (long("core").inView - long("blind:core").inView) / long("core").evidence);
    assert.ok(comparison.all.low <= comparison.all.difference && comparison.all.difference <= comparison.all.high);
    const table = (await run(false)).join("\n");
    assert.match(table, /against the blind cut of equal size/);
    assert.match(table, /\ncore +[-+]?\d+\.\d \[/);
  });

  it(
    "writes the items first views left out with --misses and the views with --views, one JSON object a line, and refuses both with --notes",
    { timeout: 60_000 },
    async () => {
      const file = join(dir, "misses.jsonl");
      const viewsFile = join(dir, "views.jsonl");
      const loupe = startLoupeProcess(
        ["eval", "--corpus", join(dir, "fixture.jsonl.gz"), "--policy", "core,blind:core", "--json", "--misses", file, "--views", viewsFile],
        {},
      );
      assert.equal(await loupe.exited, 0, loupe.lines.slice(-20).join("\n"));
      const report = JSON.parse(loupe.lines.find((line) => line.startsWith("{")) ?? "{}") as {
        policies: Array<{ policy: string; pooled: Totals }>;
        misses?: unknown;
      };
      assert.equal(report.misses, undefined, "the misses go to their file, not into the report");
      const misses = (await readFile(file, "utf8"))
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { policy: string; item: string; line: number | null; recovered: boolean | null; next_action: string });
      for (const { policy, pooled } of report.policies) {
        const left = misses.filter((miss) => miss.policy === policy);
        assert.equal(left.length, pooled.evidence - pooled.inView, `${policy}: one line per item left out`);
      }
      const blind = misses.filter((miss) => miss.policy === "blind:core");
      assert.ok(blind.length > 0, "the blind cut leaves an item out");
      for (const miss of misses) assert.ok(miss.next_action.includes(miss.item), `${miss.item} is drawn from the next action`);
      assert.ok(blind.every((miss) => miss.recovered === null && miss.line !== null));
      const views = (await readFile(viewsFile, "utf8"))
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as { policy: string; view: string; view_tokens: number; evidence: number; in_view: number; output_chars: number });
      for (const { policy, pooled } of report.policies) {
        const cut = views.filter((view) => view.policy === policy);
        assert.equal(cut.length, pooled.cutOutputs, `${policy}: one line per output it cut`);
        assert.equal(
          cut.reduce((sum, view) => sum + view.evidence - view.in_view, 0),
          pooled.evidence - pooled.inView,
          `${policy}: what the views left out is what the misses list`,
        );
      }
      assert.ok(views.every((view) => view.view.length < view.output_chars && view.view_tokens > 0));
      for (const flag of ["--misses", "--views"]) {
        // A file it cannot write is refused before the replay (not left unwritten with exit 0).
        const unwritable = startLoupeProcess(["eval", "--corpus", join(dir, "fixture.jsonl.gz"), "--policy", "core", flag, join(dir, "absent", "x.jsonl")], {});
        assert.equal(await unwritable.exited, 1);
        assert.ok(
          unwritable.lines.some((line) => line.includes(`${flag} file cannot be written`)),
          unwritable.lines.join("\n"),
        );
        const notes = startLoupeProcess(["eval", "--corpus", join(dir, "fixture.jsonl.gz"), "--notes", "16000", flag, file], {});
        assert.notEqual(await notes.exited, 0);
        assert.ok(
          notes.lines.some((line) => line.includes(`${flag} applies to the policies' replay`)),
          notes.lines.join("\n"),
        );
      }
    },
  );

  it("compares two runs' views output by output with eval-compare, and refuses a file that is not one", { timeout: 60_000 }, async () => {
    const first = join(dir, "views-a.jsonl");
    const replay = startLoupeProcess(["eval", "--corpus", join(dir, "fixture.jsonl.gz"), "--policy", "core,core:budget=1000", "--views", first], {});
    assert.equal(await replay.exited, 0, replay.lines.slice(-20).join("\n"));
    const records = (await readFile(first, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { policy: string; trajectory_id: string; step: number; in_view: number; view: string });
    // The second run as a change would leave it: one view of `core` holding one item fewer.
    const changed = records.findIndex((record) => record.policy === "core" && record.in_view > 0);
    assert.ok(changed >= 0, "a view of core holds an item");
    const second = join(dir, "views-b.jsonl");
    const target = records[changed]!;
    await writeFile(
      second,
      records
        .map((record, index) => JSON.stringify(index === changed ? { ...record, in_view: record.in_view - 1, view: record.view + "x" } : record))
        .join("\n") + "\n",
    );
    const compare = startLoupeProcess(["eval-compare", first, second], {});
    assert.equal(await compare.exited, 0, compare.lines.join("\n"));
    const row = (policy: string): string[] =>
      compare.lines
        .find((line) => line.startsWith(`${policy} `))
        ?.trim()
        .split(/ +/) ?? [];
    assert.equal(row("core")[2], "1", compare.lines.join("\n"));
    assert.deepEqual(row("core").slice(4, 7), ["0", "1", "-1"], compare.lines.join("\n"));
    assert.equal(row("core:budget=1000")[2], "0", "nothing changed at 1,000 tokens");
    assert.ok(
      compare.lines.some((line) => line.startsWith(`  lost   ${target.trajectory_id} step ${String(target.step)} `)),
      compare.lines.join("\n"),
    );
    const json = startLoupeProcess(["eval-compare", first, second, "--policy", "core", "--json"], {});
    assert.equal(await json.exited, 0);
    const parsed = JSON.parse(json.lines.find((line) => line.startsWith("{")) ?? "{}") as { comparisons: Array<{ policy: string; lost: number }> };
    assert.deepEqual(parsed.comparisons, [{ ...parsed.comparisons[0], policy: "core", lost: 1 }]);
    await writeFile(join(dir, "bad.jsonl"), JSON.stringify({ policy: "core" }) + "\n");
    const bad = startLoupeProcess(["eval-compare", first, join(dir, "bad.jsonl")], {});
    assert.equal(await bad.exited, 1);
    assert.ok(
      bad.lines.some((line) => line.includes("not a first-view record of loupe eval --views") && line.includes("line=1")),
      bad.lines.join("\n"),
    );
  });
});
