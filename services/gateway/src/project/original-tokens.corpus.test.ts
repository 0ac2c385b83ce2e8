import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { createCachingCounter, createTokenCounter } from "@loupe/projection";
import { estimateTokens } from "./original-tokens.js";

// Real tool outputs: the eval's replayed outputs (in the repository), and the real-trajectory corpus when it
// is beside the repository (absent from a user's clone: then only the former).
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const corpusDir = process.env["LOUPE_CORPUS_DIR"] ?? join(root, "..", "shared", "corpus");
const FILES = [
  join(root, "packages/eval/data/replayed-django.jsonl.gz"),
  ...["mini-swe-agent.jsonl.gz", "swe-agent.jsonl.gz", "openhands.jsonl.gz"].map((name) => join(corpusDir, name)),
].filter((file) => existsSync(file));
// An unnamed model's budget in o200k tokens (2,000 less the 25% margin).
const BUDGET = 1600;

function outputs(file: string): string[] {
  return gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { output?: unknown }).output)
    .filter((output): output is string => typeof output === "string");
}

const quantile = (values: readonly number[], q: number): number => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] ?? 0;

describe("the original's estimate on real tool outputs", () => {
  it("is within 3% of the exact count at the median and 10% at p90, unbiased within 3%, for cut outputs of 8–64 KB", (t) => {
    const counter = createTokenCounter("o200k_base");
    const errors: number[] = [];
    for (const file of FILES) {
      for (const output of new Set(outputs(file))) {
        const bytes = Buffer.byteLength(output);
        if (bytes < 8 * 1024 || bytes > 64 * 1024) continue;
        // As Project makes it: the fit check up to the budget through the call's caching counter, then the estimate.
        const caching = createCachingCounter(counter);
        if (caching.within(output, BUDGET) !== false) continue;
        const exact = counter.count(output);
        errors.push((estimateTokens(output, bytes, caching) - exact) / exact);
      }
    }
    assert.ok(errors.length >= 100, `${String(errors.length)} outputs from ${FILES.join(", ")}`);
    const absolute = errors.map(Math.abs);
    const mean = errors.reduce((sum, error) => sum + error, 0) / errors.length;
    const figures = `${String(errors.length)} outputs: p50 ${(100 * quantile(absolute, 0.5)).toFixed(1)}%, p90 ${(100 * quantile(absolute, 0.9)).toFixed(1)}%, mean ${(100 * mean).toFixed(1)}%`;
    t.diagnostic(figures);
    assert.ok(quantile(absolute, 0.5) <= 0.03 && quantile(absolute, 0.9) <= 0.1 && Math.abs(mean) <= 0.03, figures);
  });
});
