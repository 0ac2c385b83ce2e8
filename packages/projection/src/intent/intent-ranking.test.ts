import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { projectResult, type ProjectOptions } from "../project-result.js";
import type { ProjectorInput } from "../projectors/projector.js";
import { splitLines } from "../split-lines.js";
import { checkLineView, lineViewOf } from "../testing/check-line-view.js";
import { shellResult } from "../testing/shell-result.js";
import { createTokenCounter } from "../token-counter.js";
import { boostDefinitions, MAX_BODY_LINES } from "./definitions.js";
import { intentMatchesOf } from "./intent-of.js";
import { intentTerms } from "./intent-terms.js";
import { matchIntent } from "./match-intent.js";

const counter = createTokenCounter();
const options: ProjectOptions = { budgetTokens: 1200, maxViewBytes: 50_000, counter, resultId: "r_abcdefghijklmnopqrstuvwxyz012345", view: "" };
// `nl -ba` output: the number right-aligned in six columns and a tab.
const numbered = (rows: readonly string[]): string => rows.map((row, index) => `${String(index + 1).padStart(6)}\t${row}\n`).join("");

// A module of 900 lines: small functions, and at line 301 `resolve_lookup`, whose body runs 45 lines.
const MODULE = Array.from({ length: 900 }, (_, index) => {
  if (index === 300) return "def resolve_lookup(key):";
  if (index > 300 && index < 346) return index === 340 ? "    return cache_fallback(key)" : `    step_${String(index)} = run(key, ${String(index)})`;
  return index % 6 === 0 ? `def helper_${String(index)}(value):` : `    total_${String(index)} = value + ${String(index)}`;
});

// A projector's input for a `bash` call that ran `command` and printed `text`.
const bashInput = (text: string, command: string): ProjectorInput => ({
  text,
  lines: splitLines(text),
  toolName: "bash",
  args: { command },
  isError: false,
  exitCode: 0,
  timedOut: false,
  durationMs: undefined,
});

describe("intent ranking", () => {
  it("a definition the intent names comes with its body, to where the indentation closes it", () => {
    const text = numbered(MODULE);
    const view = projectResult(shellResult(text, "nl -ba src/lookup.py"), { ...options, intent: "Let me look at resolve_lookup to see what it returns." });
    // 40 lines below the definition: past the usual 20 lines of context after a match.
    assert.ok(view.text.includes("return cache_fallback(key)"), view.text);
    const lines = splitLines(text);
    const scores = new Map([[300, 1]]);
    // The body ends at the next line indented no deeper than the definition: `def helper_348` (its helpers' lines are indented).
    assert.deepEqual(boostDefinitions(scores, lines, new Set(["resolve_lookup"])), new Map([[300, 348]]));
    assert.equal(scores.get(300), 6);
  });

  it("a definition's body stops at MAX_BODY_LINES", () => {
    const rows = ["class Long:", ...Array.from({ length: 200 }, (_, index) => `    field_${String(index)} = ${String(index)}`), "after = 1"];
    const scores = new Map([[0, 1]]);
    assert.equal(boostDefinitions(scores, splitLines(rows.join("\n")), new Set(["Long"])).get(0), 1 + MAX_BODY_LINES);
  });

  it("in a numbered file, a line number the intent names ranks that line above the places the number occurs as text", () => {
    const rows = Array.from({ length: 900 }, (_, index) => (index % 97 === 5 ? `    limit = 612  # ${String(index)}` : `    other_${String(index)} = 1`));
    const text = numbered(rows);
    const matches = matchIntent(text, splitLines(text), intentTerms("The traceback points at line 612."));
    assert.equal(matches.ranked[0], 611);
    // The same rows without line numbers: the number is only text.
    const plain = rows.join("\n");
    assert.equal(matchIntent(plain, splitLines(plain), intentTerms("The traceback points at line 612.")).ranked[0], 5);
  });

  it("with a neighbour weight, a match among other matches outranks a lone one of the same score", () => {
    const rows = Array.from({ length: 300 }, (_, index) =>
      [40, 200, 202, 204].includes(index) ? `use resolve_lookup here ${String(index)}` : `line ${String(index)}`,
    );
    const text = rows.join("\n");
    const terms = intentTerms("resolve_lookup");
    assert.equal(matchIntent(text, splitLines(text), terms).ranked[0], 40);
    const clustered = matchIntent(text, splitLines(text), terms, { neighbourWeight: 0.5, neighbourRadius: 6 }).ranked;
    assert.deepEqual(clustered.slice(0, 3).sort(), [200, 202, 204]);
    assert.equal(clustered[3], 40);
  });

  it("the call's own arguments (the file it reads) are not looked for in its output", () => {
    const text = numbered(["# config_loader.py: loads the settings", ...MODULE]);
    const input = bashInput(text, "nl -ba src/config_loader.py");
    const found = intentMatchesOf(input, { intent: "Let me read src/config_loader.py to find resolve_lookup.\n[bash] nl -ba src/config_loader.py" }).terms.map(
      (term) => term.text,
    );
    assert.ok(found.includes("resolve_lookup"), found.join(" | "));
    assert.ok(!found.some((term) => term.includes("config_loader")), found.join(" | "));
  });

  it("nor are the module names of the file it reads (a docstring's `astropy.modeling` is the file naming itself)", () => {
    const text = numbered(["from astropy.modeling.core import Model", '"""See astropy.modeling.separable for resolve_lookup."""', ...MODULE]);
    const input = bashInput(text, "cat /testbed/astropy/modeling/separable.py");
    const intent = "from astropy.modeling.separable import separability_matrix gives the wrong resolve_lookup; astropy.modeling.core too";
    const found = intentMatchesOf(input, { intent }).terms.map((term) => term.text);
    assert.ok(found.includes("resolve_lookup") && found.includes("astropy.modeling.core"), found.join(" | "));
    assert.ok(!found.includes("astropy.modeling") && !found.includes("astropy.modeling.separable"), found.join(" | "));
  });

  it("views of a numbered module with any intent stay within budget, whole-lined, recoverable and the same each time", () => {
    const text = numbered(MODULE);
    const words = fc.constantFrom("resolve_lookup", "helper_48", "line 612", "lines 301-305", "340", "cache_fallback", "def", "value", "src/lookup.py", "😀");
    fc.assert(
      fc.property(fc.array(words, { maxLength: 10 }), fc.integer({ min: 150, max: 1500 }), fc.boolean(), (terms, budgetTokens, asSearch) => {
        const command = asSearch ? "grep -rn value src" : "nl -ba src/lookup.py";
        const input = shellResult(asSearch ? grepOf(MODULE) : text, command);
        const run = () => projectResult(input, { ...options, budgetTokens, intent: terms.join(" ") });
        const view = run();
        checkLineView(input.text, lineViewOf(view), { ...options, budgetTokens });
        assert.deepEqual(run(), view);
      }),
      { numRuns: 60 },
    );
  });
});

/** The module's lines as `grep -rn` hits in one file. */
function grepOf(rows: readonly string[]): string {
  return rows.map((row, index) => `src/lookup.py:${String(index + 1)}:${row}\n`).join("");
}
