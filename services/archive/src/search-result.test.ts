import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { after, before, describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { blobKey, createFileArchiveStore, type ArchiveStore } from "@loupe/archive-store";
import { isAppError } from "@loupe/errors";
import { ReadRequestSchema, SearchRequestSchema } from "@loupe/proto";
import { lineIndexOf, type LineIndex } from "./line-index.js";
import { createPatternMatcher, type PatternMatcher } from "./pattern-worker.js";
import { readRange } from "./read-range.js";
import { searchResult } from "./search-result.js";

const encoder = new TextEncoder();
const isCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code && !error.message.includes("\n");

interface Saved {
  sha: string;
  index: LineIndex;
  lines: string[];
}

describe("searchResult()", () => {
  let directory: string;
  let store: ArchiveStore;
  let matcher: PatternMatcher;
  let log: Saved;
  let hostile: Saved;

  async function save(sha: string, text: string): Promise<Saved> {
    const bytes = encoder.encode(text);
    const index = lineIndexOf(bytes);
    await store.put(blobKey("local", sha), bytes);
    return { sha, index, lines: text.split("\n").slice(0, index.lineCount) };
  }
  const search = (saved: Saved, fields: Parameters<typeof create<typeof SearchRequestSchema>>[1], deadlineMs?: number) =>
    searchResult(store, "local", saved.sha, saved.index, create(SearchRequestSchema, { resultId: "r", ...fields }), {
      matcher,
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    });

  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "loupe-search-"));
    store = createFileArchiveStore({ directory });
    matcher = createPatternMatcher();
    // ~6 MB: several windows; every 997th line is an error, some lines carry é and CRLF.
    const lines = Array.from(
      { length: 120_000 },
      (_, index) => `${String(index + 1)} ${index % 997 === 0 ? "ERROR failed" : "ok é"} ${"x".repeat(index % 40)}${index % 5 === 0 ? "\r" : ""}`,
    );
    log = await save("a".repeat(64), lines.join("\n") + "\n");
    const evil = Array.from({ length: 400 }, (_, index) => (index === 300 ? `${"a".repeat(40)}!` : `line ${String(index + 1)} aaa`));
    hostile = await save("b".repeat(64), evil.join("\n"));
  });
  after(async () => {
    await matcher.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("finds exactly the lines an independent oracle finds, with their context", async () => {
    const oracle = log.lines.map((line, index) => ({ line: index + 1, text: line.replace(/\r$/, "") })).filter(({ text }) => text.includes("ERROR"));
    const found = await search(log, { pattern: "ERROR", contextLines: 2, maxMatches: 1000 });
    assert.equal(found.nextLine, 0);
    assert.equal(found.matchCount, oracle.length);
    assert.deepEqual(
      found.matches.map(({ line, text }) => ({ line, text })),
      oracle,
    );
    for (const match of found.matches) {
      const strip = (line: string | undefined) => (line ?? "").replace(/\r$/, "");
      assert.deepEqual(match.before, log.lines.slice(Math.max(0, match.line - 3), match.line - 1).map(strip));
      assert.deepEqual(match.after, log.lines.slice(match.line, match.line + 2).map(strip));
    }
  });

  it("pages with max_matches and from_line, never repeating or skipping a match", async () => {
    const all = (await search(log, { pattern: "^\\d+7 ERROR", maxMatches: 1000 })).matches.map((match) => match.line);
    assert.ok(all.length > 5);
    const paged: number[] = [];
    let fromLine = 1;
    for (let calls = 0; calls < 100; calls++) {
      const page = await search(log, { pattern: "^\\d+7 ERROR", maxMatches: 3, fromLine });
      assert.ok(page.matches.length <= 3);
      assert.equal(page.matchCount, page.matches.length);
      paged.push(...page.matches.map((match) => match.line));
      if (page.nextLine === 0) break;
      assert.ok(page.nextLine > fromLine, "every page advances");
      fromLine = page.nextLine;
    }
    assert.deepEqual(paged, all);
  });

  it("is case-sensitive unless the pattern starts with (?i)", async () => {
    assert.equal((await search(log, { pattern: "error", maxMatches: 5 })).matchCount, 0);
    assert.equal((await search(log, { pattern: "(?i)error", maxMatches: 5 })).matchCount, 5);
  });

  it("refuses a malformed, empty or too long pattern with INVALID_ARGUMENT and a one-line message", async () => {
    await assert.rejects(
      search(log, { pattern: "(unclosed" }),
      (error: unknown) => isCode("invalid_argument")(error) && /invalid pattern \[error=Unterminated group\]/.test((error as Error).message),
    );
    await assert.rejects(search(log, { pattern: "" }), isCode("invalid_argument"));
    await assert.rejects(search(log, { pattern: "a".repeat(1001) }), isCode("invalid_argument"));
    await assert.rejects(search(log, { pattern: "a", contextLines: 51 }), isCode("invalid_argument"));
  });

  it("stops a catastrophic pattern at the deadline, answering the matches before the line it was stuck on", async () => {
    const started = performance.now();
    const found = await search(hostile, { pattern: "^(a+)+$|line 2\\d aaa", maxMatches: 1000 }, 1000);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 1500, `stopped within the deadline + 0.5 s (took ${elapsed.toFixed(0)} ms)`);
    assert.equal(found.nextLine, 301, "the stuck line is where the search continues");
    assert.deepEqual(
      found.matches.map((match) => match.line),
      [20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
    );
    await assert.rejects(
      search(hostile, { pattern: "^(a+)+$", fromLine: 301 }, 500),
      (error: unknown) => isCode("deadline_exceeded")(error) && /line=301/.test((error as Error).message),
    );
    const rest = await search(hostile, { pattern: "^(a+)+$|line 39\\d aaa", fromLine: 302 }, 1000);
    assert.deepEqual(
      rest.matches.map((match) => match.line),
      [390, 391, 392, 393, 394, 395, 396, 397, 398, 399],
    );
  });

  it("keeps the event loop free: reads answer quickly while hostile searches run", async () => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const hostileSearches = Array.from({ length: 3 }, () => search(hostile, { pattern: "^(a+)+$", fromLine: 301 }, 1500).catch((error: unknown) => error));
    const latencies: number[] = [];
    for (let reads = 0; reads < 20; reads++) {
      const started = performance.now();
      const served = await readRange(
        store,
        "local",
        log.sha,
        log.index,
        create(ReadRequestSchema, { resultId: "r", startLine: 1000 + reads * 50, endLine: 1010 + reads * 50 }),
      );
      latencies.push(performance.now() - started);
      assert.equal(served.startLine, 1000 + reads * 50);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    delay.disable();
    // A blocked loop would hold each read for the whole 1.5 s deadline; CPU shared with the workers costs a little.
    latencies.sort((a, b) => a - b);
    assert.ok((latencies[latencies.length - 1] ?? 0) < 300, `slowest read ${String(latencies[latencies.length - 1])} ms`);
    assert.ok(delay.percentile(99) / 1e6 < 50, `event loop delay p99 ${String(delay.percentile(99) / 1e6)} ms`);
    for (const outcome of await Promise.all(hostileSearches)) assert.ok(isCode("deadline_exceeded")(outcome));
  });

  it("searches an empty result and a result without a final newline", async () => {
    const empty = await save("c".repeat(64), "");
    assert.deepEqual(await search(empty, { pattern: "x" }), { matches: [], matchCount: 0, nextLine: 0 });
    const tail = await save("d".repeat(64), "one\ntwo\nthree");
    assert.deepEqual((await search(tail, { pattern: "^t", contextLines: 1 })).matches, [
      { line: 2, text: "two", before: ["one"], after: ["three"] },
      { line: 3, text: "three", before: ["two"], after: [] },
    ]);
  });
});
