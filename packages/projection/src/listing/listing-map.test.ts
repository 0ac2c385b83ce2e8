import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import { splitLines } from "../split-lines.js";
import { checkLineView } from "../testing/check-line-view.js";
import { createTokenCounter } from "../token-counter.js";
import { LISTING_MAP_OPENING, listingMapNotice } from "./listing-map.js";
import { entryLabel, parseListing } from "./parse-listing.js";
import { projectListing } from "./project-listing.js";

const counter = createTokenCounter();
const RESULT_ID = "r_0123456789abcdefghijABCDEFGHIJ_-";

function input(text: string, command: string): ProjectorInput {
  return { text, lines: splitLines(text), toolName: "bash", args: { command }, isError: false, exitCode: 0, timedOut: false, durationMs: 5 };
}

function context(budgetTokens: number, map?: number): ProjectorContext {
  return { budgetTokens, maxViewBytes: 50_000, counter, resultId: RESULT_ID, view: "", ...(map === undefined ? {} : { shares: { listing: { map } } }) };
}

function sh(command: string, cwd: string): string {
  return execFileSync("bash", ["-c", command], { cwd, maxBuffer: 1 << 28 }).toString("utf8");
}

/**
 * The map line of a view taken apart: per group its directory (the shared one joined with the group's
 * label; "" when none) and names; the number not named.
 */
function mapOf(view: string): { base: string; groups: { directory: string; names: string[] }[]; notNamed: number } | undefined {
  const line = splitLines(view).find((one) => one.startsWith(LISTING_MAP_OPENING));
  if (line === undefined) return undefined;
  const opening = /^\[loupe\] omitted entries(?: in (.*?\/))?: /.exec(line);
  assert.ok(opening, line);
  const base = opening[1] ?? "";
  let body = line.slice(opening[0].length).replace(/\n$/, "");
  assert.ok(body.endsWith("; recover a range as below"), line);
  body = body.slice(0, -"; recover a range as below".length);
  let notNamed = 0;
  const rest = /; ([\d,]+) more not named$/.exec(body);
  if (rest) {
    notNamed = Number((rest[1] ?? "").replace(/,/g, ""));
    body = body.slice(0, rest.index);
  }
  const groups = body.split("; ").map((group) => {
    const label = /^([^,]*\/): /.exec(group);
    const names = (label ? group.slice(label[0].length) : group).split(", ");
    return { directory: base + (label ? (label[1] ?? "") : ""), names };
  });
  return { base, groups, notNamed };
}

/** The entry lines of `text` that `view` does not show (whole lines, as the listing parser reads them). */
function omittedLines(text: string, view: string): string[] {
  const shown = new Set(splitLines(view));
  const lines = splitLines(text);
  const listing = parseListing(lines);
  return lines.filter((line, index) => listing.isEntry[index] === 1 && !shown.has(line));
}

describe("a listing view's map of omitted entries", () => {
  let root = "";
  before(() => {
    root = mkdtempSync(join(tmpdir(), "loupe-listing-map-"));
    mkdirSync(join(root, "flat"));
    for (let index = 0; index < 90; index++) writeFileSync(join(root, "flat", `module_${String(index).padStart(2, "0")}.py`), "x".repeat(index));
    for (let index = 0; index < 30; index++) mkdirSync(join(root, "flat", `package_${String(index).padStart(2, "0")}`));
    for (const [dir, files] of [
      ["src/core", 40],
      ["src/cli", 25],
      ["docs", 12],
    ] as const) {
      mkdirSync(join(root, "tree", dir), { recursive: true });
      for (let index = 0; index < files; index++) writeFileSync(join(root, "tree", dir, `part_${String(index)}.ts`), "");
    }
    mkdirSync(join(root, "large"));
    for (let index = 0; index < 1500; index++) writeFileSync(join(root, "large", `record_${String(index).padStart(4, "0")}.json`), "");
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("ls -la: names every omitted entry, directories with a trailing /, for the tokens of a few long lines", () => {
    const text = sh("ls -la flat", root);
    for (const budget of [1200, 2000]) {
      const options = context(budget);
      const view = projectListing(input(text, "ls -la flat"), options);
      checkLineView(text, view, options);
      const map = mapOf(view.text);
      assert.ok(map !== undefined, view.text.slice(0, 400));
      assert.equal(map.notNamed, 0, `every omitted name fits at ${String(budget)} tokens`);
      assert.deepEqual(
        map.groups.map((group) => group.directory),
        [""],
        "one directory listed: no label",
      );
      const expected = omittedLines(text, view.text).map((line) => {
        const name = line.trim().split(/\s+/).at(-1) ?? "";
        return statSync(join(root, "flat", name)).isDirectory() ? `${name}/` : name;
      });
      assert.deepEqual(map.groups[0]?.names, expected, "the omitted entries' names, in order");
      assert.ok(expected.length > 40, `${String(expected.length)} names`);
    }
  });

  it("find: groups names by directory; each name is an entry of its directory", () => {
    const text = sh("find .", join(root, "tree"));
    const options = context(600);
    const view = projectListing(input(text, "find ."), options);
    checkLineView(text, view, options);
    const map = mapOf(view.text);
    assert.ok(map !== undefined && map.groups.length >= 2, view.text.slice(0, 600));
    assert.match(map.base, /^\.\//, "the directory all omitted entries share, named once");
    let named = 0;
    for (const { directory, names } of map.groups) {
      assert.ok(directory.startsWith(map.base), `${directory} is under the shared ${map.base}`);
      for (const name of names.filter((one) => one !== "…")) {
        const path = join(root, "tree", directory, name);
        assert.ok(existsSync(path), `${directory}${name} exists`);
        assert.equal(name.endsWith("/"), statSync(path).isDirectory(), `${name}: a trailing / exactly for directories`);
        named++;
      }
    }
    assert.equal(named + map.notNamed, omittedLines(text, view.text).length, "named and not named add up to the omitted entries");
  });

  it("names an even spread when not all fit, within its share, and says how many it leaves out", () => {
    const text = sh("ls -1 large", root);
    const options = context(500);
    const view = projectListing(input(text, "ls -1 large"), options);
    checkLineView(text, view, options);
    const line = splitLines(view.text).find((one) => one.startsWith(LISTING_MAP_OPENING)) ?? "";
    assert.ok(counter.count(line) <= Math.floor(500 * 0.6), `${String(counter.count(line))} tokens`);
    const map = mapOf(view.text);
    assert.ok(map !== undefined && map.notNamed > 0);
    const names = (map.groups[0]?.names ?? []).filter((name) => name !== "…");
    assert.equal(names.length + map.notNamed, omittedLines(text, view.text).length);
    assert.equal(map.groups[0]?.names.at(-1), "…", "a directory with names left out ends in …");
    const numbers = names.map((name) => Number(/record_(\d+)/.exec(name)?.[1]));
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
      "in line order",
    );
    assert.ok((numbers.at(-1) ?? 0) - (numbers[0] ?? 0) > 1000, "spread over the whole listing, not its start");
  });

  it("is absent with a zero share, and when every entry is shown", () => {
    const text = sh("ls -la flat", root);
    assert.equal(mapOf(projectListing(input(text, "ls -la flat"), context(500, 0)).text), undefined);
    const lines = splitLines(text);
    const listing = parseListing(lines);
    assert.equal(listingMapNotice(lines, listing, new Uint8Array(lines.length).fill(1), 500, counter), "");
    assert.equal(listingMapNotice(lines, listing, new Uint8Array(lines.length), 3, counter), "", "not one name fits");
  });

  it("on generated listings and views: within its tokens, deterministic, naming omitted entries only, in order", () => {
    const segment = fc.constantFrom("src", "lib", "a_b", "x", "テスト", "deep", "util.ts", "main.py");
    const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => "./" + parts.join("/"));
    fc.assert(
      fc.property(fc.array(path, { minLength: 1, maxLength: 120 }), fc.integer({ min: 0, max: 400 }), fc.integer(), (paths, maxTokens, seed) => {
        const text = paths.join("\n") + "\n";
        const lines = splitLines(text);
        const listing = parseListing(lines);
        const kept = new Uint8Array(lines.length).map((_, index) => ((index * 7 + seed) % 3 === 0 ? 1 : 0));
        const line = listingMapNotice(lines, listing, kept, maxTokens, counter);
        assert.equal(listingMapNotice(lines, listing, kept, maxTokens, counter), line);
        if (line === "") return;
        assert.ok(counter.count(line + "\n") <= maxTokens, `${String(counter.count(line + "\n"))} > ${String(maxTokens)}`);
        assert.ok(line.startsWith(LISTING_MAP_OPENING) && !line.includes("\n"));
        // Every label it shows is an omitted entry's, and they come in line order.
        const omitted = lines.flatMap((_, index) => (listing.isEntry[index] === 1 && kept[index] !== 1 ? [entryLabel(lines, listing, index)] : []));
        let from = 0;
        for (const name of line.replace(/^[^:]*: /, "").split(/, |; |: /)) {
          if (name === "…" || name.endsWith("/") || /more not named$|^recover a range/.test(name)) continue;
          const at = omitted.indexOf(name, from);
          assert.ok(at >= 0, `${name} is an omitted entry after position ${String(from)}`);
          from = at;
        }
      }),
      { numRuns: 200 },
    );
  });
});
