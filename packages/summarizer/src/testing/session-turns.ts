import type { NoteRecord, NoteUpdateInput, Turn } from "@loupe/conversation";

/** Anthropic-style tool definitions, as a runtime sends them. */
export const ANTHROPIC_TOOLS_JSON = JSON.stringify([
  { name: "Bash", description: "Run a shell command", input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } },
  { name: "Read", description: "Read a file", input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
]);

/** The same tools in the Chat Completions shape. */
export const OPENAI_TOOLS_JSON = JSON.stringify([
  {
    type: "function",
    function: { name: "Bash", description: "Run a shell command", parameters: { type: "object", properties: { command: { type: "string" } } } },
  },
  { type: "function", function: { name: "Read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } } },
]);

/**
 * A coding session of `count` turns (seq 1…count): a user request, then assistant turns that run a
 * command and user turns carrying its result (every fourth result a failure with exit code 1).
 */
export function sessionTurns(count: number): Turn[] {
  return Array.from({ length: count }, (_, index): Turn => {
    const seq = index + 1;
    if (seq === 1)
      return {
        seq,
        role: "user",
        parts: [{ type: "text", text: "Fix the failing build of the parser package." }],
        toolCalls: [],
        toolResults: [],
        tokenCount: 12,
      };
    const id = `toolu_${String(seq - (seq % 2 === 0 ? 0 : 1))}`;
    if (seq % 2 === 0) {
      return {
        seq,
        role: "assistant",
        parts: [{ type: "text", text: `Step ${String(seq / 2)}: running the tests.` }],
        toolCalls: [{ toolUseId: id, name: "Bash", argsJson: JSON.stringify({ command: `npm test -- --shard ${String(seq)}` }) }],
        toolResults: [],
        tokenCount: 20,
      };
    }
    const failed = seq % 4 === 3;
    const output = `${failed ? "FAIL" : "PASS"} src/parser-${String(seq)}.test.ts\n${"  ✓ parses a line\n".repeat(20)}`;
    return {
      seq,
      role: "user",
      parts: [],
      toolCalls: [],
      toolResults: [{ toolUseId: id, toolName: "Bash", parts: [{ type: "text", text: output }], isError: failed, ...(failed ? { exitCode: 1 } : {}) }],
      tokenCount: 120,
    };
  });
}

/** The input of an update that folds turns `from`…`to` of `turns` into `previous`. */
export function updateInput(turns: Turn[], from: number, to: number, previous: NoteRecord | undefined, toolsJson = ANTHROPIC_TOOLS_JSON): NoteUpdateInput {
  return {
    systemPrompt: "You are a careful coding agent.",
    toolsJson,
    previous,
    coveredTurns: turns.filter((turn) => turn.seq < from),
    newTurns: turns.filter((turn) => turn.seq >= from && turn.seq <= to),
    maxNoteTokens: 800,
  };
}

/** The record a draft becomes once stored. */
export function recordOf(text: string, coveredThroughSeq: number, version: number, author: string): NoteRecord {
  return { text, coveredThroughSeq, version, state: "", author };
}
