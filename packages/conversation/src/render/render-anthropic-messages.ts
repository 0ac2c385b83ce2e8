import type { Turn, TurnPart, TurnToolCall, TurnToolResult } from "../turn.js";
import type {
  AnthropicImageBlock,
  AnthropicTextBlock,
  AnthropicToolUseBlock,
  RenderedAnthropicBlock as AnthropicContentBlock,
  RenderedAnthropicMessage as AnthropicMessage,
} from "./anthropic-message.js";
import { EMPTY_CONTENT_TEXT, HISTORY_START_TEXT, NO_OUTPUT_TEXT, hasText, isInlineImage, orphanResultText, partText, unansweredCallText } from "./part-text.js";

/** Consecutive turns of one role: they become one message (the vendor requires alternating roles). */
interface TurnRun {
  role: Turn["role"];
  turns: Turn[];
}

/** Which results answer a call in the message right before them, and which calls are answered. */
interface Pairing {
  results: Set<TurnToolResult>;
  calls: Set<TurnToolCall>;
}

/**
 * Renders turns as Anthropic Messages API `messages`. Consecutive turns of one role merge into one
 * message; a user message holds its `tool_result` blocks first, then text and images; an assistant
 * message holds text, then `tool_use` blocks. The vendor accepts a `tool_result` only right after the
 * assistant message holding its `tool_use`, and a `tool_use` only when that next message answers it, so
 * a result without its call there (an orphan: history that starts mid-exchange, or a call answered
 * late) becomes the text `[tool result <id> from <toolName>]\n<text>`, and an unanswered call the text
 * `[tool call <id> <name>]\n<argsJson>`. A history starting with an assistant turn gets a placeholder
 * user message first, and blank content a placeholder text, so no message is empty. Pure and
 * deterministic: the same turns give the same messages.
 */
export function renderAnthropicMessages(turns: Turn[]): AnthropicMessage[] {
  const runs = runsOf(turns);
  const pairing = pairRuns(runs);
  const messages: AnthropicMessage[] = [];
  if (runs[0]?.role === "assistant") messages.push({ role: "user", content: [text(HISTORY_START_TEXT)] });
  for (const run of runs) {
    const content = run.role === "user" ? userBlocks(run.turns, pairing) : assistantBlocks(run.turns, pairing);
    messages.push({ role: run.role, content: content.length > 0 ? content : [text(EMPTY_CONTENT_TEXT)] });
  }
  return messages;
}

function runsOf(turns: readonly Turn[]): TurnRun[] {
  const runs: TurnRun[] = [];
  for (const turn of turns) {
    const last = runs.at(-1);
    if (last?.role === turn.role) last.turns.push(turn);
    else runs.push({ role: turn.role, turns: [turn] });
  }
  return runs;
}

function pairRuns(runs: readonly TurnRun[]): Pairing {
  const pairing: Pairing = { results: new Set(), calls: new Set() };
  const seenIds = new Set<string>();
  runs.forEach((run, index) => {
    const next = runs[index + 1];
    if (run.role !== "assistant" || next === undefined) return;
    const open = new Map<string, TurnToolCall>();
    for (const call of run.turns.flatMap((turn) => turn.toolCalls)) {
      // The vendor rejects a tool_use id used twice in one request; a repeat is rendered as text.
      if (!seenIds.has(call.toolUseId)) open.set(call.toolUseId, call);
      seenIds.add(call.toolUseId);
    }
    for (const result of next.turns.flatMap((turn) => turn.toolResults)) {
      const call = open.get(result.toolUseId);
      if (call === undefined) continue;
      open.delete(result.toolUseId);
      pairing.results.add(result);
      pairing.calls.add(call);
    }
  });
  return pairing;
}

function userBlocks(turns: readonly Turn[], pairing: Pairing): AnthropicContentBlock[] {
  // The vendor wants every tool_result before any other block of the message.
  const results = turns.flatMap((turn) => turn.toolResults.filter((result) => pairing.results.has(result)).map(toolResultBlock));
  const rest = turns.flatMap((turn) => [
    ...turn.toolResults.filter((result) => !pairing.results.has(result)).map((result) => text(orphanResultText(result))),
    ...turn.parts.flatMap((part) => userPartBlocks(part)),
  ]);
  return [...results, ...rest];
}

function assistantBlocks(turns: readonly Turn[], pairing: Pairing): AnthropicContentBlock[] {
  const texts = turns.flatMap((turn) => [
    ...turn.parts.map(partText).filter(hasText).map(text),
    ...turn.toolCalls.filter((call) => !pairing.calls.has(call)).map((call) => text(unansweredCallText(call))),
  ]);
  const calls = turns.flatMap((turn) => turn.toolCalls.filter((call) => pairing.calls.has(call)).map(toolUseBlock));
  return [...texts, ...calls];
}

function userPartBlocks(part: TurnPart): Array<AnthropicTextBlock | AnthropicImageBlock> {
  if (isInlineImage(part)) return [{ type: "image", source: { type: "base64", media_type: part.mimeType, data: part.data } }];
  const value = partText(part);
  return hasText(value) ? [text(value)] : [];
}

type RenderedToolResult = Extract<AnthropicContentBlock, { type: "tool_result" }>;

function toolResultBlock(result: TurnToolResult): RenderedToolResult {
  const content = result.parts.flatMap(userPartBlocks);
  const block: RenderedToolResult = { type: "tool_result", tool_use_id: result.toolUseId, content: content.length > 0 ? content : [text(NO_OUTPUT_TEXT)] };
  if (result.isError) block.is_error = true;
  return block;
}

function toolUseBlock(call: TurnToolCall): AnthropicToolUseBlock {
  return { type: "tool_use", id: call.toolUseId, name: call.name, input: parseInput(call.argsJson) };
}

function parseInput(argsJson: string): Record<string, unknown> {
  if (argsJson === "") return {};
  try {
    const value: unknown = JSON.parse(argsJson);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // Arguments that are not JSON cannot be a tool_use input; the vendor needs an object.
    return {};
  }
}

function text(value: string): AnthropicTextBlock {
  return { type: "text", text: value };
}
