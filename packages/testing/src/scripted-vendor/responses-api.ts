import { list, parseArgs, record, str, textOf, type CommonTurn, type ParsedConversation } from "./conversation.js";
import { estimateTokenCount, jsonReply, sseEvent, sseReply, type ReplyContext, type VendorReply } from "./reply.js";
import type { ModelAction } from "./script.js";

const CALL_TYPES = new Set(["function_call", "custom_tool_call", "local_shell_call", "tool_search_call"]);
const OUTPUT_TYPES = new Set(["function_call_output", "custom_tool_call_output", "local_shell_call_output", "tool_search_output"]);

function callArgs(type: string, fields: Record<string, unknown>): unknown {
  if (type === "function_call") return parseArgs(fields["arguments"]);
  if (type === "custom_tool_call") return fields["input"];
  if (type === "tool_search_call") return fields["arguments"];
  return fields["action"];
}

function callName(type: string, fields: Record<string, unknown>): string {
  if (type === "tool_search_call") return "tool_search";
  // A namespaced function (Codex's deferred MCP tools) is named `<namespace>__<name>`, as Codex names it.
  const namespace = str(fields["namespace"]);
  return (namespace === "" ? str(fields["name"]) : `${namespace}__${str(fields["name"])}`) || type;
}

function itemTurn(item: unknown): CommonTurn | undefined {
  const fields = record(item);
  const type = str(fields["type"]) || "message";
  const callId = str(fields["call_id"]);
  if (CALL_TYPES.has(type)) return { role: "model", texts: [], calls: [{ callId, name: callName(type, fields), args: callArgs(type, fields) }], results: [] };
  if (OUTPUT_TYPES.has(type)) {
    const output = type === "tool_search_output" ? JSON.stringify(fields["tools"] ?? []) : textOf(fields["output"]);
    return { role: "user", texts: [], calls: [], results: [{ callId, name: "", text: output, isError: false }] };
  }
  if (type === "reasoning") return { role: "model", texts: [], calls: [], results: [] };
  if (type !== "message") return undefined;
  const role = str(fields["role"]);
  if (role === "system" || role === "developer") return undefined;
  return { role: role === "assistant" ? "model" : "user", texts: [textOf(fields["content"])], calls: [], results: [] };
}

function systemOf(fields: Record<string, unknown>): string {
  const developer = list(fields["input"]).filter((item) => ["system", "developer"].includes(str(record(item)["role"])));
  return [str(fields["instructions"]), ...developer.map((item) => textOf(record(item)["content"]))].filter((text) => text !== "").join("\n");
}

/** Parses a Responses API request (`POST /v1/responses`) into the common form (developer messages count as system text). */
export function parseResponsesRequest(body: unknown): ParsedConversation {
  const fields = record(body);
  const input = fields["input"];
  const items = typeof input === "string" ? [{ role: "user" as const, texts: [input], calls: [], results: [] }] : list(input).map(itemTurn);
  return {
    model: str(fields["model"]),
    tools: list(fields["tools"]).map((tool) => str(record(tool)["name"]) || str(record(tool)["type"])),
    system: systemOf(fields),
    items: items.filter((item): item is CommonTurn => item !== undefined),
  };
}

function outputItems(action: ModelAction, context: ReplyContext, body: unknown): Array<Record<string, unknown>> {
  const id = String(context.serial);
  const text = action.kind === "text" ? action.text : (action.text ?? "");
  const items: Array<Record<string, unknown>> = [];
  if (text !== "")
    items.push({ id: `msg_${id}`, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });
  if (action.kind !== "tool") return items;
  const tools = list(record(body)["tools"]).map(record);
  const declared = tools.find((tool) => tool["name"] === action.name);
  if (action.name === "tool_search" && tools.some((tool) => tool["type"] === "tool_search")) {
    items.push({ id: `tsc_${id}`, type: "tool_search_call", status: "completed", execution: "client", call_id: `call_${id}`, arguments: action.args });
    return items;
  }
  // A freeform tool (Codex's apply_patch) takes its input as raw text, not JSON arguments.
  if (declared?.["type"] === "custom") {
    const input = typeof action.args["input"] === "string" ? action.args["input"] : JSON.stringify(action.args);
    items.push({ id: `ctc_${id}`, type: "custom_tool_call", status: "completed", call_id: `call_${id}`, name: action.name, input });
  } else {
    const namespace = declared === undefined ? namespaceOf(action.name, body) : undefined;
    const name = namespace === undefined ? { name: action.name } : { namespace, name: action.name.slice(namespace.length + 2) };
    items.push({ id: `fc_${id}`, type: "function_call", status: "completed", call_id: `call_${id}`, ...name, arguments: JSON.stringify(action.args) });
  }
  return items;
}

/**
 * The namespace a tool name `<namespace>__<name>` belongs to, among the request's `namespace`
 * tools and those a `tool_search_output` loaded (Codex defers MCP tools behind tool_search).
 */
function namespaceOf(name: string, body: unknown): string | undefined {
  const fields = record(body);
  const loaded = list(fields["input"]).flatMap((item) => (record(item)["type"] === "tool_search_output" ? list(record(item)["tools"]) : []));
  const namespaces = [...list(fields["tools"]), ...loaded].map(record).filter((tool) => tool["type"] === "namespace");
  return namespaces.map((tool) => str(tool["name"])).find((namespace) => namespace !== "" && name.startsWith(`${namespace}__`));
}

function itemEvents(item: Record<string, unknown>, index: number): Array<[string, Record<string, unknown>]> {
  const common = { output_index: index, item_id: item["id"] };
  if (item["type"] === "message") {
    const text = str(record(list(item["content"])[0])["text"]);
    const part = { type: "output_text", text: "", annotations: [] };
    return [
      ["response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", content: [] } }],
      ["response.content_part.added", { ...common, content_index: 0, part }],
      ["response.output_text.delta", { ...common, content_index: 0, delta: text }],
      ["response.output_text.done", { ...common, content_index: 0, text }],
      ["response.content_part.done", { ...common, content_index: 0, part: { ...part, text } }],
      ["response.output_item.done", { output_index: index, item }],
    ];
  }
  if (item["type"] === "tool_search_call") {
    return [
      ["response.output_item.added", { output_index: index, item: { ...item, status: "in_progress" } }],
      ["response.output_item.done", { output_index: index, item }],
    ];
  }
  const field = item["type"] === "function_call" ? "arguments" : "input";
  const kind = item["type"] === "function_call" ? "function_call_arguments" : "custom_tool_call_input";
  return [
    ["response.output_item.added", { output_index: index, item: { ...item, status: "in_progress", [field]: "" } }],
    [`response.${kind}.delta`, { ...common, delta: item[field] }],
    [`response.${kind}.done`, { ...common, [field]: item[field] }],
    ["response.output_item.done", { output_index: index, item }],
  ];
}

/** The answer in the Responses API's shape: the event stream Codex reads when `stream` is true, else one response object. */
export function responsesReply(action: ModelAction, context: ReplyContext, body: unknown, stream: boolean): VendorReply {
  const output = outputItems(action, context, body);
  const outputTokens = estimateTokenCount(JSON.stringify(output));
  const usage = {
    input_tokens: context.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: context.inputTokens + outputTokens,
  };
  const base = { id: `resp_${String(context.serial)}`, object: "response", created_at: 1_700_000_000 + context.serial, model: context.model };
  const done = { ...base, status: "completed", output, usage, error: null, incomplete_details: null };
  if (!stream) return jsonReply(done);
  const events: Array<[string, Record<string, unknown>]> = [
    ["response.created", { response: { ...base, status: "in_progress", output: [], usage: null } }],
    ["response.in_progress", { response: { ...base, status: "in_progress", output: [], usage: null } }],
    ...output.flatMap(itemEvents),
    ["response.completed", { response: done }],
  ];
  return sseReply(events.map(([type, data], sequence) => sseEvent({ type, sequence_number: sequence, ...data }, type)));
}

/** An error in the OpenAI APIs' shape. */
export function openaiError(status: number, message: string): VendorReply {
  return jsonReply({ error: { message, type: status === 404 ? "invalid_request_error" : "server_error", param: null, code: null } }, status);
}
