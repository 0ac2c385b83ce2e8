import { composeIntent } from "./compose-intent.js";
import { INJECTED_CONTEXT, jsonObjects, textOfParts } from "./transcript-lines.js";

/** One item of a Codex rollout's `response_item` lines (the Responses API's items, as Codex records them). */
interface RolloutItem {
  type?: unknown;
  role?: unknown;
  content?: unknown;
  summary?: unknown;
  call_id?: unknown;
}

function itemsOf(text: string): RolloutItem[] {
  return jsonObjects(text).flatMap((entry) =>
    entry["type"] === "response_item" && typeof entry["payload"] === "object" && entry["payload"] !== null ? [entry["payload"] as RolloutItem] : [],
  );
}

const isUserText = (item: RolloutItem): boolean => item.type === "message" && item.role === "user" && !INJECTED_CONTEXT.test(textOfParts(item.content));

/**
 * The intent of a tool call from a Codex rollout (`transcript_path`: JSONL, one `{type, payload}` a
 * line, the conversation's items under `response_item`): the task (the first user message that is not
 * one Codex wrote itself) and what the model said and summarised of its reasoning between the last user
 * message or tool output and the call `callId`. Without that call, what it said last. `head` is the
 * start of the rollout and `tail` its end (a long rollout is read at both ends only); they may be the
 * same text.
 */
export function intentFromCodexRollout(head: string, tail: string, callId: string): string {
  const task = itemsOf(head).find(isUserText);
  const items = itemsOf(tail);
  let end = items.findIndex((item) => item.type === "function_call" && item.call_id === callId);
  if (end < 0) end = items.length;
  const asking: string[] = [];
  for (let index = end - 1; index >= 0; index--) {
    const item = items[index]!;
    if (item.type === "function_call_output" || isUserText(item)) break;
    if (item.type === "message" && item.role === "assistant") asking.unshift(textOfParts(item.content));
    else if (item.type === "reasoning") asking.unshift(textOfParts(item.summary));
  }
  return composeIntent(task === undefined ? "" : textOfParts(task.content), asking.filter((text) => text.trim() !== "").join("\n"));
}
