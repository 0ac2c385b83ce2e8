import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Turn, TurnToolCall, TurnToolResult } from "../turn.js";
import { emptyExtractiveState } from "./extractive-state.js";
import { foldTurns } from "./fold-turns.js";

// Pieces of real-shaped turns: the generators combine them, with arbitrary text mixed in.
const USER_TEXTS = ["Fix the failing tests in src/math.ts.", "Actually, use Postgres instead of SQLite.", "Please also update the README.", ""];
const ASSISTANT_TEXTS = [
  "Let me look at the failing test first.",
  "The root cause is that add() subtracts. I'll switch to a + b.",
  "I decided to keep the old API because callers depend on it.",
  "Next steps:\n1. Run npm test\n2. Update the changelog",
  "Then I need to rerun the linter. TODO: remove the debug print.",
  "All tests pass now.",
  "",
];
const CALLS: { name: string; args: unknown }[] = [
  { name: "Bash", args: { command: "npm test" } },
  { name: "Bash", args: { command: "cd /repo && sed -i 's/a - b/a + b/' src/math.ts && npm test" } },
  { name: "bash", args: { command: "cat > /tmp/repro.py << 'EOF'\nimport sys\nprint(open('setup.py').read())\nEOF\npython /tmp/repro.py" } },
  { name: "Read", args: { file_path: "/repo/src/math.ts" } },
  { name: "Edit", args: { file_path: "/repo/src/math.ts", old_string: "a - b", new_string: "a + b" } },
  { name: "Write", args: { file_path: "/repo/src/new-file.ts", content: "export {};\n" } },
  { name: "apply_patch", args: { input: "*** Begin Patch\n*** Update File: src/app.py\n@@\n-x\n+y\n*** End Patch" } },
  { name: "str_replace_editor", args: { command: "view", path: "/workspace/repo/README.md" } },
  { name: "Grep", args: { pattern: "TODO", path: "src" } },
  {
    name: "TodoWrite",
    args: {
      todos: [
        { content: "Fix add()", status: "completed" },
        { content: "Update docs", status: "pending" },
      ],
    },
  },
  { name: "shell", args: { command: ["bash", "-lc", "pytest -q tests/test_x.py"] } },
];
const OUTPUTS = [
  "ok\n",
  "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nModuleNotFoundError: No module named 'numpy'\n",
  "FAILED tests/test_x.py::test_add - assert 3 == 4\n========================= 1 failed, 1 passed in 0.05s =========================\n",
  "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n",
  "ERROR:\nNo replacement was performed, old_str `x` did not appear verbatim.",
  "",
];

const callArb = (id: string): fc.Arbitrary<TurnToolCall> =>
  fc.oneof(
    fc.constantFrom(...CALLS).map(({ name, args }) => ({ toolUseId: id, name, argsJson: JSON.stringify(args) })),
    fc.record({ toolUseId: fc.constant(id), name: fc.string({ maxLength: 12 }), argsJson: fc.string({ maxLength: 80 }) }),
  );

const resultArb = (id: string, name: string): fc.Arbitrary<TurnToolResult> =>
  fc.record({
    toolUseId: fc.constant(id),
    toolName: fc.constant(name),
    parts: fc.array(
      fc.oneof(fc.constantFrom(...OUTPUTS), fc.string({ maxLength: 60 })).map((text) => ({ type: "text" as const, text })),
      { maxLength: 2 },
    ),
    isError: fc.boolean(),
    exitCode: fc.constantFrom(0, 1, 2, 127),
  });

const textArb = (pool: string[]): fc.Arbitrary<string> =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fc.string({ maxLength: 120 }) });

/** An assistant turn with calls, then (usually) a user turn answering some of them, in any order. */
const exchangeArb = fc.integer({ min: 0, max: 1_000_000 }).chain((tag) =>
  fc
    .array(callArb(""), { maxLength: 3 })
    .map((calls) => calls.map((call, index) => ({ ...call, toolUseId: `t${String(tag)}-${String(index)}` })))
    .chain((calls) =>
      fc.tuple(
        textArb(ASSISTANT_TEXTS),
        fc.constant(calls),
        fc.shuffledSubarray(calls).chain((answered) => fc.tuple(...answered.map((call) => resultArb(call.toolUseId, call.name)))),
        textArb(USER_TEXTS),
      ),
    ),
);

/** Turns with contiguous seqs from 1: a task, then exchanges. */
const turnsArb: fc.Arbitrary<Turn[]> = fc.tuple(textArb(USER_TEXTS), fc.array(exchangeArb, { maxLength: 25 })).map(([task, exchanges]) => {
  const turns: Turn[] = [];
  const push = (turn: Omit<Turn, "seq" | "tokenCount">): void => void turns.push({ ...turn, seq: turns.length + 1, tokenCount: 0 });
  push({ role: "user", parts: [{ type: "text", text: task }], toolCalls: [], toolResults: [] });
  for (const [text, calls, results, userText] of exchanges) {
    push({ role: "assistant", parts: text === "" ? [] : [{ type: "text", text }], toolCalls: calls, toolResults: [] });
    push({ role: "user", parts: userText === "" || results.length > 0 ? [] : [{ type: "text", text: userText }], toolCalls: [], toolResults: results });
  }
  return turns;
});

const splitArb = turnsArb.chain((turns) => fc.tuple(fc.constant(turns), fc.array(fc.integer({ min: 0, max: turns.length }), { maxLength: 4 })));

function chunks<T>(items: T[], cuts: number[]): T[][] {
  const points = [...new Set([0, ...cuts, items.length])].sort((left, right) => left - right);
  return points.slice(1).map((end, index) => items.slice(points[index], end));
}

describe("foldTurns()", () => {
  it("does not depend on batching: any split gives the same state as one fold", () => {
    fc.assert(
      fc.property(splitArb, ([turns, cuts]) => {
        const whole = foldTurns(undefined, turns);
        const batched = chunks(turns, cuts).reduce<ReturnType<typeof foldTurns> | undefined>((state, batch) => foldTurns(state, batch), undefined);
        assert.deepStrictEqual(batched, whole);
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same state when the state goes through JSON between batches", () => {
    fc.assert(
      fc.property(splitArb, ([turns, cuts]) => {
        const whole = foldTurns(undefined, turns);
        let state = emptyExtractiveState();
        for (const batch of chunks(turns, cuts)) state = JSON.parse(JSON.stringify(foldTurns(state, batch))) as typeof state;
        assert.deepStrictEqual(state, whole);
      }),
      { numRuns: 200 },
    );
  });

  it("is deterministic, leaves its input alone and ignores a redelivered batch", () => {
    fc.assert(
      fc.property(splitArb, ([turns, cuts]) => {
        const [first = [], ...rest] = chunks(turns, cuts);
        const state = foldTurns(undefined, first);
        const snapshot = JSON.stringify(state);
        const once = foldTurns(state, rest.flat());
        assert.deepStrictEqual(foldTurns(state, rest.flat()), once);
        assert.equal(JSON.stringify(state), snapshot);
        assert.deepStrictEqual(foldTurns(once, turns), once);
      }),
      { numRuns: 200 },
    );
  });

  it("keeps the first user text as the objective, cited at its turn", () => {
    fc.assert(
      fc.property(turnsArb, (turns) => {
        const state = foldTurns(undefined, turns);
        const first = turns.find((turn) => turn.role === "user" && turn.parts.some((part) => part.type === "text" && part.text.trim() !== ""));
        assert.equal(state.objective?.seqs[0], first?.seq);
      }),
      { numRuns: 200 },
    );
  });

  it("stays within bounds however many turns it folds", () => {
    fc.assert(
      fc.property(fc.array(turnsArb, { minLength: 1, maxLength: 8 }), (runs) => {
        const turns = runs.flat().map((turn, index) => ({ ...turn, seq: index + 1 }));
        const state = foldTurns(undefined, turns);
        assert.ok(state.decisions.length <= 12 && state.files.length <= 40 && state.errors.length <= 12 && state.calls.length <= 24);
        assert.ok(JSON.stringify(state).length < 40_000);
      }),
      { numRuns: 50 },
    );
  });
});
