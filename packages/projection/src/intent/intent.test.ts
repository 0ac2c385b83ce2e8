import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { projectResult, type ProjectOptions, type ResultInput } from "../project-result.js";
import type { ResultKind } from "../projectors/projector.js";
import { splitLines } from "../split-lines.js";
import { checkLineView, lineViewOf } from "../testing/check-line-view.js";
import { shellResult } from "../testing/shell-result.js";
import { createTokenCounter } from "../token-counter.js";
import { boundIntent, MAX_INTENT_BYTES } from "./bound-intent.js";
import { intentTerms } from "./intent-terms.js";
import { matchIntent } from "./match-intent.js";
import { moreMatchesNotice } from "./intent-notice.js";

const counter = createTokenCounter();
const resultId = "r_abcdefghijklmnopqrstuvwxyz012345";
const options: ProjectOptions = { budgetTokens: 800, maxViewBytes: 50_000, counter, resultId, view: "" };
const lines = (count: number, make: (index: number) => string): string => Array.from({ length: count }, (_, index) => make(index) + "\n").join("");

const input = (kind: ResultKind | undefined, command: string, text: string): ResultInput => shellResult(text, command, kind);

// One output per line-based kind, each with a line the intent names deep in its middle.
const CASES: ReadonlyArray<{ kind: ResultKind | undefined; command: string; text: string; needle: string }> = [
  {
    kind: undefined,
    command: "cat src/app.py",
    text: lines(900, (index) => (index === 500 ? "    cache[key] = resolve_lookup(key)" : `    step_${String(index)} = run(${String(index)})`)),
    needle: "cache[key] = resolve_lookup(key)",
  },
  {
    kind: undefined,
    command: "grep -rn run src",
    text: lines(
      900,
      (index) => `src/mod_${String(index % 31)}.py:${String(index + 3)}:    ${index === 500 ? "resolve_lookup" : "run"}(value_${String(index)})`,
    ),
    needle: "resolve_lookup(value_500)",
  },
  {
    kind: undefined,
    command: "find . -name '*.py'",
    text: lines(900, (index) => `./pkg/dir_${String(index % 17)}/${index === 500 ? "resolve_lookup" : `file_${String(index)}`}.py`),
    needle: "resolve_lookup.py",
  },
  {
    kind: undefined,
    command: "python run.py",
    text: lines(900, (index) => (index === 500 ? "computed resolve_lookup = 41" : `iteration ${String(index)}: loss 0.${String(index)}`)),
    needle: "computed resolve_lookup = 41",
  },
  {
    kind: "generic",
    command: "",
    text: lines(900, (index) => (index === 500 ? "The resolve_lookup table maps names." : `Paragraph line ${String(index)} of ordinary prose.`)),
    needle: "The resolve_lookup table maps names.",
  },
  {
    kind: "conversation",
    command: "",
    text: lines(
      60,
      (index) =>
        `${index % 2 === 0 ? "user" : "assistant"}: turn ${String(index)}\n${index === 20 ? "the resolve_lookup fix goes here" : "nothing much"}\n${"filler words here\n".repeat(12).trimEnd()}`,
    ),
    needle: "the resolve_lookup fix goes here",
  },
];

describe("intent", () => {
  it("boundIntent() keeps up to 16 KiB of UTF-8, never splitting a code point", () => {
    assert.equal(boundIntent("short"), "short");
    assert.equal(boundIntent("a".repeat(MAX_INTENT_BYTES + 10)).length, MAX_INTENT_BYTES);
    const emoji = "😀".repeat(MAX_INTENT_BYTES);
    const cut = boundIntent(emoji);
    assert.equal(new TextEncoder().encode(cut).byteLength, MAX_INTENT_BYTES);
    assert.ok(!/[\ud800-\udbff]$/.test(cut));
    assert.equal(new TextEncoder().encode(boundIntent("é".repeat(MAX_INTENT_BYTES))).byteLength, MAX_INTENT_BYTES);
  });

  it("intentTerms() finds paths and base names, quoted strings, error names, identifiers and numbers", () => {
    const terms = intentTerms('Fix `parse_header` in /testbed/src/http/client.py: ValueError at line 212, see "bad header value" and HttpClient.send').map(
      (term) => term.text,
    );
    for (const expected of ["src/http/client.py", "client.py", "parse_header", "bad header value", "ValueError", "HttpClient.send", "HttpClient", "212"])
      assert.ok(terms.includes(expected), `${expected} in ${terms.join(" | ")}`);
    assert.ok(!terms.includes("the"));
  });

  it("matchIntent() weights a rare term over a common one", () => {
    const text = lines(100, (index) => (index === 40 ? "rare_name common_name" : "common_name only"));
    const matches = matchIntent(text, splitLines(text), intentTerms("rare_name and common_name"));
    assert.equal(matches.ranked[0], 40);
    assert.equal(matches.terms.find((term) => term.text === "common_name")?.weight, 0);
  });

  it("moreMatchesNotice() names the matches left out with a pattern continuation", () => {
    const text = lines(50, (index) => (index % 10 === 0 ? `call resolve_lookup(${String(index)})` : "other"));
    const matches = matchIntent(text, splitLines(text), intentTerms("resolve_lookup"));
    const shown = new Uint8Array(50);
    shown[0] = 1;
    assert.equal(
      moreMatchesNotice(matches, shown, resultId),
      `[loupe] 4 more lines mention \`resolve_lookup\`; recover with {"result_id":"${resultId}","pattern":"resolve_lookup","context_lines":2}`,
    );
    assert.equal(moreMatchesNotice(matches, new Uint8Array(50).fill(1), resultId), "");
  });

  for (const sample of CASES) {
    it(`${sample.kind ?? sample.command}: keeps the line the intent names, with the same bytes each time, bounded and recoverable`, () => {
      const plain = projectResult(input(sample.kind, sample.command, sample.text), options);
      const intent = "The agent looks at resolve_lookup next.";
      const view = projectResult(input(sample.kind, sample.command, sample.text), { ...options, intent });
      assert.ok(!plain.text.includes(sample.needle), "found without the intent");
      assert.ok(view.text.includes(sample.needle), view.text);
      assert.deepEqual(projectResult(input(sample.kind, sample.command, sample.text), { ...options, intent }), view);
      checkLineView(sample.text, lineViewOf(view), options);
    });
  }

  it("views with any intent stay within budget, whole-lined and recoverable", () => {
    const words = fc.constantFrom(
      "resolve_lookup",
      "run",
      "step_12",
      "src/mod_3.py",
      "ValueError",
      "'ordinary prose'",
      "500",
      "cache[key]",
      "dir_4",
      "loss",
      "😀",
      "turn 7",
    );
    fc.assert(
      fc.property(fc.constantFrom(...CASES), fc.array(words, { maxLength: 12 }), fc.integer({ min: 150, max: 1200 }), (sample, terms, budgetTokens) => {
        const view = projectResult(input(sample.kind, sample.command, sample.text), { ...options, budgetTokens, intent: terms.join(" ") });
        checkLineView(sample.text, lineViewOf(view), { ...options, budgetTokens });
        assert.ok(counter.count(view.text) <= budgetTokens);
      }),
      { numRuns: 60 },
    );
  });
});
