import { callText, composeIntent, MAX_EARLIER_MESSAGES } from "./compose-intent.js";
import { INJECTED_CONTEXT, jsonObjects, textOfParts } from "./transcript-lines.js";

/** One item of a Codex rollout's `response_item` lines (the Responses API's items, as Codex records them). */
export interface RolloutItem {
  type?: unknown;
  role?: unknown;
  content?: unknown;
  summary?: unknown;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
  input?: unknown;
  output?: unknown;
}

/** The conversation's items of a rollout's text (its `response_item` lines' payloads), in order. */
export function rolloutItems(text: string): RolloutItem[] {
  return jsonObjects(text).flatMap((entry) =>
    entry["type"] === "response_item" && typeof entry["payload"] === "object" && entry["payload"] !== null ? [entry["payload"] as RolloutItem] : [],
  );
}

export const isRolloutUserText = (item: RolloutItem): boolean =>
  item.type === "message" && item.role === "user" && !INJECTED_CONTEXT.test(textOfParts(item.content));

/** Whether the item is a tool's output (a function's, or a freeform tool's such as `apply_patch`). */
export const isRolloutToolOutput = (item: RolloutItem): boolean => item.type === "function_call_output" || item.type === "custom_tool_call_output";

/** Whether the item is the call `callId` (a function call, or a freeform tool call such as `apply_patch`). */
const isCall = (item: RolloutItem, callId: string): boolean => (item.type === "function_call" || item.type === "custom_tool_call") && item.call_id === callId;

/** What the model said or summarised of its reasoning in an item, as text; "" for any other item. */
export function saidInRolloutItem(item: RolloutItem): string {
  if (item.type === "message" && item.role === "assistant") return textOfParts(item.content);
  if (item.type === "reasoning") return textOfParts(item.summary);
  return "";
}

/**
 * What the model wrote in an item: its text and reasoning summaries (`saidIn`), and its calls as
 * `callText` renders them (a `function_call`'s JSON `arguments`, a `custom_tool_call`'s freeform
 * `input`); "" for tool outputs, user messages and other items.
 */
function wroteIn(item: RolloutItem): string {
  if (item.type === "function_call" && typeof item.name === "string") return callText(item.name, item.arguments);
  if (item.type === "custom_tool_call" && typeof item.name === "string") return callText(item.name, item.input);
  return saidInRolloutItem(item);
}

/**
 * The model's turns among `items` (what it wrote between user messages and tool outputs, see
 * `wroteIn`), each as one text, oldest first; turns that wrote nothing are left out.
 */
function turnsOf(items: readonly RolloutItem[]): string[] {
  const turns: string[][] = [[]];
  for (const item of items) {
    if (isRolloutToolOutput(item) || isRolloutUserText(item)) turns.push([]);
    else turns.at(-1)?.push(wroteIn(item));
  }
  return turns.map((turn) => turn.filter((text) => text.trim() !== "").join("\n")).filter((text) => text !== "");
}

/**
 * The intent of a tool call from a Codex rollout (`transcript_path`: JSONL, one `{type, payload}` a
 * line, the conversation's items under `response_item`): the task (the first user message that is not
 * one Codex wrote itself); the model's turns before the one that asked for the call, each with its
 * text, reasoning summaries and calls (their arguments, not their output); and what the model said
 * and summarised of its reasoning between the last user message or tool output and the call `callId`.
 * Without that call, what it said last. `head` is the start of the rollout and `tail` its end (a long
 * rollout is read at both ends only: the earlier turns come from `tail`); they may be the same text.
 */
export function intentFromCodexRollout(head: string, tail: string, callId: string): string {
  const items = rolloutItems(tail);
  // A rollout read whole (head and tail the same text) is parsed once.
  const task = (head === tail ? items : rolloutItems(head)).find(isRolloutUserText);
  let end = items.findIndex((item) => isCall(item, callId));
  if (end < 0) end = items.length;
  let start = end;
  while (start > 0 && !isRolloutToolOutput(items[start - 1]!) && !isRolloutUserText(items[start - 1]!)) start--;
  const asking = items
    .slice(start, end)
    .map(saidInRolloutItem)
    .filter((text) => text.trim() !== "");
  const earlier = turnsOf(items.slice(0, start)).slice(-MAX_EARLIER_MESSAGES);
  return composeIntent(task === undefined ? "" : textOfParts(task.content), asking.join("\n"), earlier);
}
