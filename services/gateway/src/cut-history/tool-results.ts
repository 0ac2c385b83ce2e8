/** One tool result inside a vendor request history, with a way to replace its text. */
export interface HistoryToolResult {
  toolName: string;
  text: string;
  /** Writes the new text back where it was found. */
  replace(text: string): void;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const stringOf = (value: unknown): string => (typeof value === "string" ? value : "");

// A result's content is a string or an array of {type:"text", text} blocks: one text per text block.
function textsOf(holder: Json, key: string, toolName: string): HistoryToolResult[] {
  const content = holder[key];
  if (typeof content === "string") return [{ toolName, text: content, replace: (text) => (holder[key] = text) }];
  return asArray(content).flatMap((block) =>
    isObject(block) && (block["type"] === "text" || block["type"] === "input_text" || block["type"] === "output_text") && typeof block["text"] === "string"
      ? [{ toolName, text: block["text"], replace: (text: string) => (block["text"] = text) }]
      : [],
  );
}

/** Anthropic Messages: `tool_result` blocks in user messages, named by the assistant's `tool_use` blocks. */
export function anthropicToolResults(body: Json): HistoryToolResult[] {
  const names = new Map<string, string>();
  const results: HistoryToolResult[] = [];
  for (const message of asArray(body["messages"])) {
    if (!isObject(message)) continue;
    for (const block of asArray(message["content"])) {
      if (!isObject(block)) continue;
      if (block["type"] === "tool_use" && typeof block["id"] === "string") names.set(block["id"], stringOf(block["name"]));
      if (block["type"] === "tool_result") results.push(...textsOf(block, "content", names.get(stringOf(block["tool_use_id"])) ?? ""));
    }
  }
  return results;
}

/** OpenAI Chat Completions: `role: "tool"` messages, named by the assistant's `tool_calls`. */
export function openAiChatToolResults(body: Json): HistoryToolResult[] {
  const names = new Map<string, string>();
  const results: HistoryToolResult[] = [];
  for (const message of asArray(body["messages"])) {
    if (!isObject(message)) continue;
    for (const call of asArray(message["tool_calls"])) {
      if (isObject(call) && typeof call["id"] === "string" && isObject(call["function"])) names.set(call["id"], stringOf(call["function"]["name"]));
    }
    if (message["role"] === "tool") results.push(...textsOf(message, "content", names.get(stringOf(message["tool_call_id"])) ?? ""));
  }
  return results;
}

/** OpenAI Responses: `function_call_output` (and `custom_tool_call_output`) items, named by their `function_call`. */
export function openAiResponsesToolResults(body: Json): HistoryToolResult[] {
  const names = new Map<string, string>();
  const results: HistoryToolResult[] = [];
  for (const item of asArray(body["input"])) {
    if (!isObject(item)) continue;
    if ((item["type"] === "function_call" || item["type"] === "custom_tool_call" || item["type"] === "local_shell_call") && typeof item["call_id"] === "string") {
      names.set(item["call_id"], item["type"] === "local_shell_call" ? "shell" : stringOf(item["name"]));
    }
    if (item["type"] === "function_call_output" || item["type"] === "custom_tool_call_output" || item["type"] === "local_shell_call_output") {
      results.push(...textsOf(item, "output", names.get(stringOf(item["call_id"])) ?? ""));
    }
  }
  return results;
}
