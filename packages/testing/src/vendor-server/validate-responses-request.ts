/** A parsed JSON value seen as an object with unknown fields. */
type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields => typeof value === "object" && value !== null && !Array.isArray(value);

const ROLES: ReadonlySet<unknown> = new Set(["system", "developer", "user", "assistant"]);
const PART_TYPES: ReadonlySet<unknown> = new Set(["input_text", "output_text", "input_image", "input_file", "refusal"]);

function messageProblem(item: Fields, at: string): string | undefined {
  if (!ROLES.has(item["role"])) return `${at}.role: expected one of system, developer, user, assistant`;
  const content = item["content"];
  if (typeof content === "string") return undefined;
  if (!Array.isArray(content) || content.length === 0) return `${at}.content: expected a string or a non-empty array of parts`;
  for (const [index, part] of content.entries()) {
    if (!isFields(part) || !PART_TYPES.has(part["type"])) return `${at}.content[${String(index)}].type: unknown part type`;
    if ((part["type"] === "input_text" || part["type"] === "output_text") && typeof part["text"] !== "string")
      return `${at}.content[${String(index)}].text: expected a string`;
  }
  return undefined;
}

/**
 * Checks a Responses API request body the way OpenAI does, for the rules a renderer can break:
 * `model` a string; `input` a string or an array of items (`message` with a known role and parts,
 * `function_call` with `call_id`, `name` and string `arguments`, `function_call_output` answering an
 * earlier call); every call answered. Returns the problem in the vendor's wording, or undefined.
 */
export function validateResponsesRequest(body: unknown): string | undefined {
  if (!isFields(body)) return "body: expected an object";
  if (typeof body["model"] !== "string" || body["model"] === "") return "Missing required parameter: 'model'.";
  const input = body["input"];
  if (typeof input === "string") return undefined;
  if (!Array.isArray(input) || input.length === 0) return "Missing required parameter: 'input'.";
  const open = new Set<string>();
  const called = new Set<string>();
  for (const [index, item] of input.entries()) {
    const at = `input[${String(index)}]`;
    if (!isFields(item)) return `${at}: expected an object`;
    const type = item["type"] ?? "message";
    if (type === "message") {
      const problem = messageProblem(item, at);
      if (problem !== undefined) return problem;
    } else if (type === "function_call") {
      if (typeof item["call_id"] !== "string" || typeof item["name"] !== "string" || typeof item["arguments"] !== "string")
        return `${at}: a function_call needs call_id, name and arguments (a string)`;
      open.add(item["call_id"]);
      called.add(item["call_id"]);
    } else if (type === "function_call_output") {
      const id = String(item["call_id"]);
      if (!called.has(id)) return `No tool call found for function call output with call_id ${id}.`;
      if (typeof item["output"] !== "string" && !Array.isArray(item["output"])) return `${at}.output: expected a string or an array`;
      open.delete(id);
    } else if (typeof type !== "string") return `${at}.type: expected a string`;
  }
  if (open.size > 0) return `No tool output found for function call ${[...open][0] ?? ""}.`;
  return undefined;
}
