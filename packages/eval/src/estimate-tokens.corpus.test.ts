import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createCachingCounter, createTokenCounter, estimateTokens } from "@loupe/projection";
import { readCorpus } from "./read-corpus.js";
import { corpusFiles } from "./testing/corpus-dir.js";

// Real tool outputs: the eval's replayed outputs (in the repository), and the real-trajectory corpus when it
// is beside the repository (absent from a user's clone: then only the former).
const REPLAYED = fileURLToPath(new URL("../data/replayed-django.jsonl.gz", import.meta.url));
const { files: corpus } = corpusFiles(["mini-swe-agent.jsonl.gz", "swe-agent.jsonl.gz", "openhands.jsonl.gz"]);
const FILES = [REPLAYED, ...corpus].filter((file) => existsSync(file));
// An unnamed model's budget in o200k tokens (2,000 less the 25% margin), where Project's fit check stops.
const BUDGET = 1600;

const quantile = (values: readonly number[], q: number): number => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))] ?? 0;

describe("estimateTokens on real tool outputs", () => {
  it("is within 3% of the exact count at the median and 10% at p90, unbiased within 3%, for cut outputs of 8–64 KB", async (t) => {
    const counter = createTokenCounter("o200k_base");
    const { trajectories } = await readCorpus(FILES);
    const outputs = new Set(trajectories.flatMap((trajectory) => trajectory.rows.map((row) => row.output)));
    const errors: number[] = [];
    for (const output of outputs) {
      const bytes = Buffer.byteLength(output);
      if (bytes < 8 * 1024 || bytes > 64 * 1024) continue;
      // As Project makes it: the fit check up to the budget through the call's caching counter, then the estimate.
      const caching = createCachingCounter(counter);
      if (caching.within(output, BUDGET) !== false) continue;
      const exact = counter.count(output);
      errors.push((estimateTokens(output, bytes, caching) - exact) / exact);
    }
    assert.ok(errors.length >= 100, `${String(errors.length)} outputs from ${FILES.join(", ")}`);
    const absolute = errors.map(Math.abs);
    const mean = errors.reduce((sum, error) => sum + error, 0) / errors.length;
    const figures = `${String(errors.length)} outputs: p50 ${(100 * quantile(absolute, 0.5)).toFixed(1)}%, p90 ${(100 * quantile(absolute, 0.9)).toFixed(1)}%, mean ${(100 * mean).toFixed(1)}%`;
    t.diagnostic(figures);
    assert.ok(quantile(absolute, 0.5) <= 0.03 && quantile(absolute, 0.9) <= 0.1 && Math.abs(mean) <= 0.03, figures);
  });
});
