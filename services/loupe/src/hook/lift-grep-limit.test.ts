import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_GREP_LINES, grepLinesOf, liftGrepLimit } from "./lift-grep-limit.js";

const content = { pattern: "compute\\(", path: "/work", output_mode: "content", "-n": true };

describe("liftGrepLimit()", () => {
  it("lifts Claude Code's 250-line cut of a content search whose call named no head_limit, keeping every other argument", () => {
    assert.deepEqual(liftGrepLimit("claude-code", "Grep", content, 10_000), { ...content, head_limit: 10_000 });
    assert.deepEqual(liftGrepLimit("claude-code", "Grep", { ...content, offset: 40 }, 0), { ...content, offset: 40, head_limit: 0 });
  });

  it("lifts it in every mode: file lists (the default mode) and counts are projected too", () => {
    for (const mode of ["files_with_matches", "count"])
      assert.deepEqual(liftGrepLimit("claude-code", "Grep", { ...content, output_mode: mode }, 10_000), { ...content, output_mode: mode, head_limit: 10_000 });
    assert.deepEqual(liftGrepLimit("claude-code", "Grep", { pattern: "x" }, 10_000), { pattern: "x", head_limit: 10_000 });
  });

  it("leaves a call that chose its limit, other tools and other runtimes alone", () => {
    assert.equal(liftGrepLimit("claude-code", "Grep", { ...content, head_limit: 20 }, 10_000), undefined);
    assert.equal(liftGrepLimit("claude-code", "Grep", { ...content, head_limit: 0 }, 10_000), undefined);
    assert.equal(liftGrepLimit("claude-code", "Glob", content, 10_000), undefined);
    for (const runtime of ["codex", "gemini-cli", "opencode"] as const) assert.equal(liftGrepLimit(runtime, "Grep", content, 10_000), undefined, runtime);
  });

  it("does not lower the cut: a limit of 250 lines or fewer leaves the call as it is", () => {
    assert.equal(liftGrepLimit("claude-code", "Grep", content, 250), undefined);
    assert.equal(liftGrepLimit("claude-code", "Grep", content, 100), undefined);
    assert.deepEqual(liftGrepLimit("claude-code", "Grep", content, 251), { ...content, head_limit: 251 });
  });
});

describe("grepLinesOf()", () => {
  it("reads LOUPE_GREP_LINES (0: no limit) and falls back on anything else", () => {
    assert.equal(grepLinesOf({}), DEFAULT_GREP_LINES);
    assert.equal(grepLinesOf({ LOUPE_GREP_LINES: "0" }), 0);
    assert.equal(grepLinesOf({ LOUPE_GREP_LINES: "50000" }), 50_000);
    for (const raw of ["", " ", "-1", "2.5", "many"]) assert.equal(grepLinesOf({ LOUPE_GREP_LINES: raw }), DEFAULT_GREP_LINES, raw);
  });
});
