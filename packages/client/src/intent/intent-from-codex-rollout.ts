import { composeIntent } from "./compose-intent.js";

/** One item of a Codex rollout's `response_item` lines (the Responses API's items, as Codex records them). */
interface RolloutItem {
  type?: unknown;
  role?: unknown;
  content?: unknown;
  summary?: unknown;
  call_id?: unknown;
}

function itemsOf(text: string): RolloutItem[] {
  const items: RolloutItem[] = [];
  for (const line of text.split("\n")) {
    let entry: { type?: unknown; payload?: unknown };
    try {
      entry = JSON.parse(line) as { type?: unknown; payload?: unknown };
    } catch {
      // A line cut at a read boundary, or not JSON: skipped.
      continue;
    }
    if (entry.type === "response_item" && typeof entry.payload === "object" && entry.payload !== null) items.push(entry.payload);
  }
  return items;
}

/** The text parts of an item's `content` (input_text, output_text) or a reasoning item's `summary`, joined. */
function textOf(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  return parts
    .flatMap((part: unknown) => {
      const text = typeof part === "object" && part !== null ? (part as { text?: unknown }).text : undefined;
      return typeof text === "string" ? [text] : [];
    })
    .join("\n");
}

// What Codex itself puts in user messages (its environment, the user's instructions): `<tag>…</tag>` blocks, not the task.
const INJECTED = /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/;

const isUserText = (item: RolloutItem): boolean => item.type === "message" && item.role === "user" && !INJECTED.test(textOf(item.content));

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
    if (item.type === "message" && item.role === "assistant") asking.unshift(textOf(item.content));
    else if (item.type === "reasoning") asking.unshift(textOf(item.summary));
  }
  return composeIntent(task === undefined ? "" : textOf(task.content), asking.filter((text) => text.trim() !== "").join("\n"));
}
