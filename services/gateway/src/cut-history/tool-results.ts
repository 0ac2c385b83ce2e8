import { IntentTracker, type TrackedCall } from "./intent-tracker.js";

/** One tool result inside a vendor request history, with a way to replace its text. */
export interface HistoryToolResult {
  toolName: string;
  text: string;
  /**
   * What the agent was after when it made the call, from the history before the result: the first
   * user message (the task), the assistant's earlier messages with their calls, and the text of the
   * assistant message that made the call (see IntentTracker).
   */
  readonly intent: string;
  /** Writes the new text back where it was found. */
  replace(text: string): void;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const stringOf = (value: unknown): string => (typeof value === "string" ? value : "");

// A result's content is a string or an array of {type:"text", text} blocks: one text per text block.
// The intent is composed when asked for (only a result the cut projects needs it): a long history has hundreds of results.
function textsOf(holder: Json, key: string, toolName: string, intentOf: () => string): HistoryToolResult[] {
  const result = (text: string, replace: (text: string) => void): HistoryToolResult => ({
    toolName,
    text,
    get intent() {
      return intentOf();
    },
    replace,
  });
  const content = holder[key];
  if (typeof content === "string") return [result(content, (text) => (holder[key] = text))];
  return asArray(content).flatMap((block) =>
    isObject(block) && (block["type"] === "text" || block["type"] === "input_text" || block["type"] === "output_text") && typeof block["text"] === "string"
      ? [result(block["text"], (text) => (block["text"] = text))]
      : [],
  );
}

/** The text of a message's content: a string, or its text blocks joined. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return asArray(content)
    .flatMap((block) => (isObject(block) && typeof block["text"] === "string" && block["type"] !== "tool_result" ? [block["text"]] : []))
    .join("\n");
}

/** Anthropic Messages: `tool_result` blocks in user messages, named by the assistant's `tool_use` blocks. */
export function anthropicToolResults(body: Json): HistoryToolResult[] {
  const names = new Map<string, string>();
  const intents = new IntentTracker();
  const results: HistoryToolResult[] = [];
  for (const message of asArray(body["messages"])) {
    if (!isObject(message)) continue;
    const calls: TrackedCall[] = [];
    for (const block of asArray(message["content"])) {
      if (!isObject(block)) continue;
      if (block["type"] === "tool_use" && typeof block["id"] === "string") {
        names.set(block["id"], stringOf(block["name"]));
        calls.push({ id: block["id"], name: stringOf(block["name"]), input: block["input"] });
      }
      if (block["type"] === "tool_result") {
        const id = stringOf(block["tool_use_id"]);
        results.push(...textsOf(block, "content", names.get(id) ?? "", intents.intentOf(id)));
      }
    }
    if (message["role"] === "assistant") intents.assistant(contentText(message["content"]), calls);
    else intents.user(contentText(message["content"]));
  }
  return results;
}

/** OpenAI Chat Completions: `role: "tool"` messages, named by the assistant's `tool_calls`. */
export function openAiChatToolResults(body: Json): HistoryToolResult[] {
  const names = new Map<string, string>();
  const intents = new IntentTracker();
  const results: HistoryToolResult[] = [];
  for (const message of asArray(body["messages"])) {
    if (!isObject(message)) continue;
    const calls: TrackedCall[] = [];
    for (const call of asArray(message["tool_calls"])) {
      if (isObject(call) && typeof call["id"] === "string" && isObject(call["function"])) {
        names.set(call["id"], stringOf(call["function"]["name"]));
        calls.push({ id: call["id"], name: stringOf(call["function"]["name"]), input: call["function"]["arguments"] });
      }
    }
    if (message["role"] === "tool") {
      const id = stringOf(message["tool_call_id"]);
      results.push(...textsOf(message, "content", names.get(id) ?? "", intents.intentOf(id)));
    } else if (message["role"] === "assistant") intents.assistant(contentText(message["content"]), calls);
    else if (message["role"] === "user") intents.user(contentText(message["content"]));
  }
  return results;
}

/** OpenAI Responses: `function_call_output` (and `custom_tool_call_output`) items, named by their `function_call`. */
export function openAiResponsesToolResults(body: Json): HistoryToolResult[] {
  const names = new Map<string, string>();
  const intents = new IntentTracker();
  // A call's asking text is the assistant message before it (Responses items are flat).
  let lastAssistant = "";
  const results: HistoryToolResult[] = [];
  for (const item of asArray(body["input"])) {
    if (!isObject(item)) continue;
    if ((item["type"] ?? "message") === "message") {
      if (item["role"] === "assistant") lastAssistant = contentText(item["content"]);
      else if (item["role"] === "user") intents.user(contentText(item["content"]));
    }
    if (
      (item["type"] === "function_call" || item["type"] === "custom_tool_call" || item["type"] === "local_shell_call") &&
      typeof item["call_id"] === "string"
    ) {
      const name = item["type"] === "local_shell_call" ? "shell" : stringOf(item["name"]);
      names.set(item["call_id"], name);
      const input = item["type"] === "local_shell_call" ? item["action"] : item["type"] === "custom_tool_call" ? item["input"] : item["arguments"];
      intents.assistant(lastAssistant, [{ id: item["call_id"], name, input }]);
    }
    if (item["type"] === "function_call_output" || item["type"] === "custom_tool_call_output" || item["type"] === "local_shell_call_output") {
      const id = stringOf(item["call_id"]);
      results.push(...textsOf(item, "output", names.get(id) ?? "", intents.intentOf(id)));
    }
  }
  return results;
}
