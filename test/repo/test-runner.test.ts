import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "@loupe/testing";

// scripts/run-tests.sh runs `node --test` without --test-force-exit (under Node 20 it drops verdicts from the
// count) and with test/support/exit-after-tests.ts in every file's process: the summary line must count every
// test, keep the exit code of a failure, and a handle left open must not keep the run alive.
const root = repoRoot();

describe("the test runner's summary line", () => {
  it("counts every test of every file, fails on a failure, and ends a file kept alive by an open handle", () => {
    const folder = mkdtempSync(join(tmpdir(), "loupe-runner-"));
    try {
      const passing = join(folder, "passing.test.mjs");
      const failing = join(folder, "failing.test.mjs");
      writeFileSync(
        passing,
        `import { test } from "node:test";\nfor (let i = 0; i < 1000; i++) test("t" + i, () => {});\ntest("leaves a handle open", () => { setInterval(() => {}, 1000); });\n`,
      );
      writeFileSync(
        failing,
        `import assert from "node:assert";\nimport { test } from "node:test";\ntest("passes", () => {});\ntest("fails", () => assert.equal(1, 2));\n`,
      );
      // A run of its own, not a file of this one: without the variable that marks this process as a runner's child.
      const env = { ...process.env };
      delete env["NODE_TEST_CONTEXT"];
      const run = spawnSync(
        process.execPath,
        ["--import", "tsx", "--import", "./test/support/exit-after-tests.ts", "--test", "--test-concurrency=1", passing, failing],
        { cwd: root, encoding: "utf8", timeout: 60_000, env },
      );
      assert.equal(run.signal, null, "the run ended by itself");
      const summary = (name: string): number => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(run.stdout)?.[1] ?? -1);
      assert.equal(summary("tests"), 1003, run.stdout.slice(-500));
      assert.equal(summary("pass"), 1002);
      assert.equal(summary("fail"), 1);
      assert.equal(run.status, 1, "a failing test fails the run");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
