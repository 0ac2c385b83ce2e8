import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTokenCounter, projectResult } from "@loupe/projection";
import { blindCut } from "./blind-policy.js";
import type { CorpusRow } from "./corpus-row.js";
import { readCorpus, splitOf } from "./read-corpus.js";
import { toolCallOf } from "./tool-call.js";
import { corpusFiles } from "./testing/corpus-dir.js";

// The real-trajectory corpus (absent from a user's clone: then these tests skip).
const { dir: corpusDir, files, present } = corpusFiles(["mini-swe-agent.jsonl.gz", "swe-agent.jsonl.gz", "openhands.jsonl.gz"]);
const counter = createTokenCounter();
const BUDGETS = [500, 1000, 2000];

// The name an entry line gives, read here independently of the listing projector's parser: the text after
// the date of a long-format line, else the last part of a path (a trailing "/" dropped).
const LONG_FORMAT = /\s(?:[A-Z][a-z]{2}\s+\d{1,2}|\d{1,2}\s+[A-Z][a-z]{2})\s+(?:\d{1,2}:\d\d|\d{4})\s(.+)$/;
function entryNames(output: string): string[] {
  return output.split("\n").flatMap((line) => {
    if (line.trim() === "" || /^(?:total \d+|find: |ls: )/.test(line) || line.endsWith(":")) return [];
    const long = LONG_FORMAT.exec(line);
    const path = (long ? (long[1] ?? "") : line.trim()).replace(/ -> .*$/, "").replace(/\/+$/, "");
    const name = path.slice(path.lastIndexOf("/") + 1);
    return name.length >= 3 && name !== "..." ? [name] : [];
  });
}

interface Tally {
  listings: number;
  names: number;
  loupe: number;
  withoutMap: number;
  blind: number;
}

describe("listing views on real agent listings (the corpus's ls and find calls)", { skip: present ? false : `no corpus at ${corpusDir}` }, () => {
  it("show more of the entry names than a blind cut of the same size, and than without the map, per split and budget", async () => {
    const corpus = await readCorpus(files);
    const tallies = new Map<string, Tally>();
    const rows: CorpusRow[] = corpus.trajectories.flatMap((trajectory) =>
      trajectory.rows.filter((row) => row.toolDetail === "ls" || row.toolDetail === "find"),
    );
    for (const row of rows) {
      const call = toolCallOf(row);
      const names = entryNames(row.output);
      for (const budgetTokens of BUDGETS) {
        if (names.length === 0 || counter.within(row.output, budgetTokens) !== false) continue;
        const input = {
          ...call,
          declaredKind: "directory_list" as const,
          text: row.output,
          structuredOnly: false,
          isError: false,
          exitCode: 0,
          timedOut: false,
          durationMs: undefined,
        };
        const options = { budgetTokens, maxViewBytes: 50_000, counter, resultId: "r_0123456789abcdefghijABCDEFGHIJ_-", view: "" };
        const view = projectResult(input, options).text;
        const withoutMap = projectResult(input, { ...options, shares: { listing: { map: 0 } } }).text;
        const blind = blindCut(row.output, counter.count(view));
        const key = `${splitOf(row.trajectoryId)} @${String(budgetTokens)}`;
        const tally = tallies.get(key) ?? { listings: 0, names: 0, loupe: 0, withoutMap: 0, blind: 0 };
        tallies.set(key, {
          listings: tally.listings + 1,
          names: tally.names + names.length,
          loupe: tally.loupe + names.filter((name) => view.includes(name)).length,
          withoutMap: tally.withoutMap + names.filter((name) => withoutMap.includes(name)).length,
          blind: tally.blind + names.filter((name) => blind.includes(name)).length,
        });
      }
    }
    assert.ok(tallies.size > 0, "the corpus has listings over these budgets");
    const share = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)}%`;
    for (const [key, tally] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
      console.log(
        `${key}: ${String(tally.listings)} listings, ${String(tally.names)} entry names; in Loupe's view ${share(tally.loupe, tally.names)} (${share(tally.withoutMap, tally.names)} without the map of omitted entries), in the blind cut ${share(tally.blind, tally.names)}`,
      );
      if (tally.names < 200) continue;
      assert.ok(tally.loupe > tally.blind, `${key}: ${String(tally.loupe)} ≤ ${String(tally.blind)} (blind)`);
      assert.ok(tally.loupe > tally.withoutMap, `${key}: ${String(tally.loupe)} ≤ ${String(tally.withoutMap)} (without the map)`);
    }
  });
});
