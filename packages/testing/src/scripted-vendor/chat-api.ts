import { list, parseArgs, record, str, textOf, type CommonTurn, type ParsedConversation } from "./conversation.js";
import { estimateTokenCount, jsonReply, sseEvent, sseReply, type ReplyContext, type VendorReply } from "./reply.js";
import type { ModelAction } from "./script.js";

function turnOf(message: unknown): CommonTurn | undefined {
  const fields = record(message);
  const role = str(fields["role"]);
  if (role === "system" || role === "developer") return undefined;
  if (role === "tool") {
    return {
      role: "user",
      texts: [],
      calls: [],
      results: [{ callId: str(fields["tool_call_id"]), name: "", text: textOf(fields["content"]), isError: false }],
    };
  }
  const calls = list(fields["tool_calls"]).map((call) => {
    const fn = record(record(call)["function"]);
    return { callId: str(record(call)["id"]), name: str(fn["name"]), args: parseArgs(fn["arguments"]) };
  });
  return { role: role === "assistant" ? "model" : "user", texts: [textOf(fields["content"])], calls, results: [] };
}

/** Parses a Chat Completions request (`POST /v1/chat/completions`) into the common form. */
export function parseChatRequest(body: unknown): ParsedConversation {
  const fields = record(body);
  const messages = list(fields["messages"]);
  const system = messages.filter((message) => ["system", "developer"].includes(str(record(message)["role"])));
  return {
    model: str(fields["model"]),
    tools: list(fields["tools"]).map((tool) => str(record(record(tool)["function"])["name"])),
    system: system.map((message) => textOf(record(message)["content"])).join("\n"),
    items: messages.map(turnOf).filter((turn): turn is CommonTurn => turn !== undefined),
  };
}

/** The answer in the Chat Completions shape: `chat.completion.chunk` events ending in `[DONE]` when `stream` is true. */
export function chatReply(action: ModelAction, context: ReplyContext, body: unknown, stream: boolean): VendorReply {
  const id = `chatcmpl-${String(context.serial)}`;
  const created = 1_700_000_000 + context.serial;
  const text = action.kind === "text" ? action.text : (action.text ?? "");
  const call =
    action.kind === "tool"
      ? { id: `call_${String(context.serial)}`, type: "function", function: { name: action.name, arguments: JSON.stringify(action.args) } }
      : undefined;
  const finish = call === undefined ? "stop" : "tool_calls";
  const outputTokens = estimateTokenCount(text + JSON.stringify(call ?? ""));
  const usage = { prompt_tokens: context.inputTokens, completion_tokens: outputTokens, total_tokens: context.inputTokens + outputTokens };
  const base = { id, created, model: context.model };
  if (!stream) {
    const message = { role: "assistant", content: text === "" ? null : text, ...(call === undefined ? {} : { tool_calls: [call] }) };
    return jsonReply({ ...base, object: "chat.completion", choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage });
  }
  const chunk = (delta: Record<string, unknown>, finishReason: string | null): string =>
    sseEvent({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const events = [chunk({ role: "assistant", content: "" }, null)];
  if (text !== "") events.push(chunk({ content: text }, null));
  if (call !== undefined) {
    events.push(chunk({ tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }, null));
    events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }, null));
  }
  events.push(chunk({}, finish));
  if (record(record(body)["stream_options"])["include_usage"] === true) events.push(sseEvent({ ...base, object: "chat.completion.chunk", choices: [], usage }));
  events.push(sseEvent("[DONE]"));
  return sseReply(events);
}
