import { list, record, str, textOf, type CommonTurn, type ParsedConversation } from "./conversation.js";
import { estimateTokenCount, jsonReply, sseEvent, sseReply, type ReplyContext, type VendorReply } from "./reply.js";
import type { ModelAction } from "./script.js";

function turnOf(message: unknown): CommonTurn {
  const fields = record(message);
  const role = fields["role"] === "assistant" ? "model" : "user";
  const turn: CommonTurn = { role, texts: [], calls: [], results: [] };
  const content = fields["content"];
  if (typeof content === "string") return { ...turn, texts: [content] };
  for (const block of list(content)) {
    const part = record(block);
    if (part["type"] === "text") turn.texts.push(str(part["text"]));
    if (part["type"] === "tool_use") turn.calls.push({ callId: str(part["id"]), name: str(part["name"]), args: part["input"] ?? {} });
    if (part["type"] === "tool_result") {
      turn.results.push({ callId: str(part["tool_use_id"]), name: "", text: textOf(part["content"]), isError: part["is_error"] === true });
    }
  }
  return turn;
}

/** Parses a Messages API request (`POST /v1/messages`) into the common form. */
export function parseAnthropicRequest(body: unknown): ParsedConversation {
  const fields = record(body);
  return {
    model: str(fields["model"]),
    tools: list(fields["tools"]).map((tool) => str(record(tool)["name"])),
    system: textOf(fields["system"]),
    items: list(fields["messages"]).map(turnOf),
  };
}

function contentOf(action: ModelAction, serial: number): Array<Record<string, unknown>> {
  const text = action.kind === "text" ? action.text : (action.text ?? "");
  const blocks: Array<Record<string, unknown>> = text === "" ? [] : [{ type: "text", text }];
  if (action.kind === "tool") blocks.push({ type: "tool_use", id: `toolu_${String(serial).padStart(6, "0")}`, name: action.name, input: action.args });
  return blocks;
}

/** The answer in the Messages API's shape: an event stream when `stream` is true, else one message. */
export function anthropicReply(action: ModelAction, context: ReplyContext, stream: boolean): VendorReply {
  const content = contentOf(action, context.serial);
  const outputTokens = estimateTokenCount(JSON.stringify(content));
  const stopReason = action.kind === "tool" ? "tool_use" : "end_turn";
  const usage = { input_tokens: context.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: outputTokens };
  const message = {
    id: `msg_${String(context.serial)}`,
    type: "message",
    role: "assistant",
    model: context.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
  if (!stream) return jsonReply(message);
  const events = [
    sseEvent({ type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }, "message_start"),
  ];
  content.forEach((block, index) => {
    const start = block["type"] === "text" ? { type: "text", text: "" } : { ...block, input: {} };
    const delta =
      block["type"] === "text" ? { type: "text_delta", text: block["text"] } : { type: "input_json_delta", partial_json: JSON.stringify(block["input"]) };
    events.push(sseEvent({ type: "content_block_start", index, content_block: start }, "content_block_start"));
    events.push(sseEvent({ type: "content_block_delta", index, delta }, "content_block_delta"));
    events.push(sseEvent({ type: "content_block_stop", index }, "content_block_stop"));
  });
  events.push(
    sseEvent({ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }, "message_delta"),
  );
  events.push(sseEvent({ type: "message_stop" }, "message_stop"));
  return sseReply(events);
}

/** The answer to `POST /v1/messages/count_tokens`. */
export function anthropicCountTokens(bodyText: string): VendorReply {
  return jsonReply({ input_tokens: estimateTokenCount(bodyText) });
}

/** An error in the Messages API's shape. */
export function anthropicError(status: number, message: string): VendorReply {
  return jsonReply({ type: "error", error: { type: status === 404 ? "not_found_error" : "invalid_request_error", message } }, status);
}
