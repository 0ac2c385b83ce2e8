/** A parsed JSON value seen as an object with unknown fields. */
type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);

const ROLES: ReadonlySet<unknown> = new Set(["system", "developer", "user", "assistant", "tool"]);

/**
 * Checks a Chat Completions request body the way OpenAI does, for the rules a renderer can break:
 * `model` a string, `messages` non-empty with known roles, each `tool` message answering a call of the
 * assistant message before it (only `tool` messages between), and every call of an assistant message
 * answered before the next other message. Returns the problem in the vendor's wording, or undefined.
 */
export function validateChatRequest(body: unknown): string | undefined {
  if (!isFields(body)) return "body: expected an object";
  if (typeof body["model"] !== "string" || body["model"] === "") return "you must provide a model parameter";
  const messages = body["messages"];
  if (!Array.isArray(messages) || messages.length === 0) return "'messages' must contain at least one message";
  let open: Set<string> | undefined;
  for (const [index, message] of messages.entries()) {
    if (!isFields(message) || !ROLES.has(message["role"])) return `messages[${String(index)}].role: expected one of system, developer, user, assistant, tool`;
    if (message["role"] === "tool") {
      const id = String(message["tool_call_id"]);
      if (open?.has(id) !== true)
        return `messages[${String(index)}]: messages with role 'tool' must be a response to a preceding message with 'tool_calls' (tool_call_id ${id})`;
      open.delete(id);
      continue;
    }
    if (open !== undefined && open.size > 0)
      return `an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'; missing: ${[...open].join(", ")}`;
    open = undefined;
    if (message["role"] !== "assistant") continue;
    open = callIds(message);
    if ((message["content"] ?? null) === null && open.size === 0) return `messages[${String(index)}]: an assistant message needs content or tool_calls`;
  }
  if (open !== undefined && open.size > 0)
    return `an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'; missing: ${[...open].join(", ")}`;
  return undefined;
}

function callIds(message: Fields): Set<string> {
  const calls = Array.isArray(message["tool_calls"]) ? message["tool_calls"] : [];
  return new Set(calls.filter(isFields).map((call) => String(call["id"])));
}
