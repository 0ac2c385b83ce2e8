import type { Turn, TurnToolCall, TurnToolResult } from "../turn.js";

/** A user turn with text. */
export function userTurn(seq: number, text: string): Turn {
  return { seq, role: "user", parts: [{ type: "text", text }], toolCalls: [], toolResults: [], tokenCount: 0 };
}

/** An assistant turn with text ("" for none) and tool calls. */
export function assistantTurn(seq: number, text: string, calls: TurnToolCall[] = []): Turn {
  return { seq, role: "assistant", parts: text === "" ? [] : [{ type: "text", text }], toolCalls: calls, toolResults: [], tokenCount: 0 };
}

/** A user turn carrying tool results. */
export function resultTurn(seq: number, results: TurnToolResult[]): Turn {
  return { seq, role: "user", parts: [], toolCalls: [], toolResults: results, tokenCount: 0 };
}

/** A tool call with JSON arguments. */
export function call(toolUseId: string, name: string, args: unknown): TurnToolCall {
  return { toolUseId, name, argsJson: JSON.stringify(args) };
}

/** A tool result with text output. */
export function result(toolUseId: string, toolName: string, text: string, options: { isError?: boolean; exitCode?: number } = {}): TurnToolResult {
  return {
    toolUseId,
    toolName,
    parts: [{ type: "text", text }],
    isError: options.isError ?? false,
    ...(options.exitCode === undefined ? {} : { exitCode: options.exitCode }),
  };
}

/**
 * A realistic fix loop: a failing `npm test`, a Read and an Edit of
 * src/math.ts, a passing `npm test`. Turns `first` … `first + 7`.
 */
export function fixLoopTurns(first: number): Turn[] {
  const id = (name: string): string => `${name}-${String(first)}`;
  return [
    assistantTurn(first, "Let me run the test suite first.", [call(id("test1"), "Bash", { command: "npm test" })]),
    resultTurn(first + 1, [
      result(
        id("test1"),
        "Bash",
        "> demo@1.0.0 test\n> node --test\n\nnot ok 1 - add() sums two numbers\n  ---\n  error: 'Expected values to be strictly equal:\\n\\n1 !== 3\\n'\n  ...\n# tests 4\n# pass 3\n# fail 1\n",
        { isError: true, exitCode: 1 },
      ),
    ]),
    assistantTurn(first + 2, "The problem is that add() subtracts its arguments. I'll change `a - b` to `a + b` in src/math.ts.", [
      call(id("read"), "Read", { file_path: "/repo/src/math.ts" }),
      call(id("edit"), "Edit", { file_path: "/repo/src/math.ts", old_string: "return a - b;", new_string: "return a + b;" }),
    ]),
    resultTurn(first + 3, [
      result(id("read"), "Read", "     1\texport function add(a, b) {\n     2\t  return a - b;\n     3\t}\n"),
      result(id("edit"), "Edit", "The file /repo/src/math.ts has been updated."),
    ]),
    assistantTurn(first + 4, "Now the tests should pass; running them again.", [call(id("test2"), "Bash", { command: "npm test" })]),
    resultTurn(first + 5, [
      result(id("test2"), "Bash", "> demo@1.0.0 test\n> node --test\n\nok 1 - add() sums two numbers\n# tests 4\n# pass 4\n# fail 0\n", { exitCode: 0 }),
    ]),
    assistantTurn(first + 6, "All 4 tests pass. Next I need to update the changelog.", [call(id("log"), "Read", { file_path: "/repo/CHANGELOG.md" })]),
    resultTurn(first + 7, [result(id("log"), "Read", "# Changelog\n")]),
  ];
}
