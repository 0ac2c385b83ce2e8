/** A parsed JSON value seen as an object with unknown fields. */
type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks a Messages API request body the way the vendor does, for the rules a renderer can break:
 * `model` a string, `max_tokens` a positive integer, `messages` non-empty, roles alternating from
 * `user` and ending with `user`, no empty content or blank text, `tool_result` blocks first in their
 * message and each answering a `tool_use` of the assistant message right before it, and each
 * `tool_use` answered in the next message. Returns the problem in the vendor's wording, or undefined.
 */
export function validateAnthropicRequest(body: unknown): string | undefined {
  if (!isFields(body)) return "body: expected an object";
  if (typeof body["model"] !== "string" || body["model"] === "") return "model: field required";
  const maxTokens = body["max_tokens"];
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens <= 0) return "max_tokens: must be a positive integer";
  if (body["system"] !== undefined && typeof body["system"] !== "string" && !Array.isArray(body["system"]))
    return "system: expected a string or a list of text blocks";
  if (body["tools"] !== undefined && !(Array.isArray(body["tools"]) && body["tools"].every((tool) => isFields(tool) && typeof tool["name"] === "string")))
    return "tools: expected a list of tools with names";
  const messages = body["messages"];
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  let previousUses: string[] = [];
  for (const [index, message] of messages.entries()) {
    const problem = messageProblem(message, index, previousUses);
    if (problem !== undefined) return `messages.${String(index)}: ${problem}`;
    const uses = blocksOf(message).flatMap((block) => (block["type"] === "tool_use" ? [String(block["id"])] : []));
    const answers = blocksOf(messages[index + 1]).flatMap((block) => (block["type"] === "tool_result" ? [String(block["tool_use_id"])] : []));
    const unanswered = uses.filter((id) => !answers.includes(id));
    if (unanswered.length > 0)
      return `messages.${String(index)}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    previousUses = uses;
  }
  if (messageRole(messages.at(-1)) !== "user") return `messages.${String(messages.length - 1)}: the last message must have the user role`;
  return undefined;
}

function messageProblem(message: unknown, index: number, previousUses: readonly string[]): string | undefined {
  if (!isFields(message)) return "expected an object";
  const expected = index % 2 === 0 ? "user" : "assistant";
  if (message["role"] !== expected) return `roles must alternate between "user" and "assistant", starting with "user" (expected "${expected}")`;
  const content = message["content"];
  if (typeof content === "string") return content.trim() === "" ? "text content must be non-empty" : undefined;
  if (!Array.isArray(content) || content.length === 0) return "content: at least one block is required";
  let seenOther = false;
  for (const block of content) {
    if (!isFields(block) || typeof block["type"] !== "string") return "content: each block needs a type";
    if (block["type"] === "text" && (typeof block["text"] !== "string" || block["text"].trim() === ""))
      return "text content blocks must contain non-whitespace text";
    if (block["type"] !== "tool_result") {
      seenOther = true;
      continue;
    }
    if (message["role"] !== "user") return "tool_result blocks belong in user messages";
    if (seenOther) return "tool_result blocks must come before any other content in the message";
    if (!previousUses.includes(String(block["tool_use_id"])))
      return `unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block["tool_use_id"])}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
  }
  return undefined;
}

function messageRole(message: unknown): unknown {
  return isFields(message) ? message["role"] : undefined;
}

function blocksOf(message: unknown): Fields[] {
  if (!isFields(message) || !Array.isArray(message["content"])) return [];
  return message["content"].filter(isFields);
}
