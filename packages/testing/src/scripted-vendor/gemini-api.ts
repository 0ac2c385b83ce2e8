import { list, record, str, textOf, type CommonTurn, type ParsedConversation } from "./conversation.js";
import { estimateTokenCount, jsonReply, sseEvent, sseReply, type ReplyContext, type VendorReply } from "./reply.js";
import type { ModelAction, ScriptedToolResult } from "./script.js";

function resultOf(part: Record<string, unknown>): ScriptedToolResult {
  const response = record(part["response"]);
  const error = response["error"];
  const output = response["output"];
  const text = error !== undefined ? textOf(error) || JSON.stringify(error) : typeof output === "string" ? output : JSON.stringify(part["response"] ?? {});
  return { callId: str(part["id"]), name: str(part["name"]), text, isError: error !== undefined };
}

function turnOf(content: unknown): CommonTurn {
  const fields = record(content);
  const turn: CommonTurn = { role: fields["role"] === "model" ? "model" : "user", texts: [], calls: [], results: [] };
  for (const value of list(fields["parts"])) {
    const part = record(value);
    if (typeof part["text"] === "string" && part["thought"] !== true) turn.texts.push(part["text"]);
    const call = record(part["functionCall"]);
    if (part["functionCall"] !== undefined) turn.calls.push({ callId: str(call["id"]), name: str(call["name"]), args: call["args"] ?? {} });
    if (part["functionResponse"] !== undefined) turn.results.push(resultOf(record(part["functionResponse"])));
  }
  return turn;
}

/** Parses a Gemini `generateContent` / `streamGenerateContent` request into the common form. */
export function parseGeminiRequest(body: unknown, model: string): ParsedConversation {
  const fields = record(body);
  const declarations = list(fields["tools"]).flatMap((tool) => list(record(tool)["functionDeclarations"]));
  return {
    model,
    tools: declarations.map((declaration) => str(record(declaration)["name"])),
    system: textOf(record(fields["systemInstruction"])["parts"]),
    items: list(fields["contents"]).map(turnOf),
  };
}

/** The model's parts for an action: optional text, then at most one `functionCall`. */
function partsOf(action: ModelAction): Array<Record<string, unknown>> {
  const text = action.kind === "text" ? action.text : (action.text ?? "");
  const parts: Array<Record<string, unknown>> = text === "" ? [] : [{ text }];
  if (action.kind === "tool") parts.push({ functionCall: { name: action.name, args: action.args } });
  return parts;
}

/** The answer in the Gemini API's shape; for `stream` (`streamGenerateContent?alt=sse`) one `data:` event holding it. */
export function geminiReply(action: ModelAction, context: ReplyContext, stream: boolean): VendorReply {
  const parts = partsOf(action);
  const outputTokens = estimateTokenCount(JSON.stringify(parts));
  const response = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: context.inputTokens, candidatesTokenCount: outputTokens, totalTokenCount: context.inputTokens + outputTokens },
    modelVersion: context.model,
    responseId: `resp-${String(context.serial)}`,
  };
  return stream ? sseReply([sseEvent(response)]) : jsonReply(response);
}

/** The answer to `:countTokens`. */
export function geminiCountTokens(bodyText: string): VendorReply {
  return jsonReply({ totalTokens: estimateTokenCount(bodyText) });
}

/** An error in the Gemini API's shape. */
export function geminiError(status: number, message: string): VendorReply {
  return jsonReply({ error: { code: status, message, status: status === 404 ? "NOT_FOUND" : "INVALID_ARGUMENT" } }, status);
}

/**
 * The JSON schema a side request asks the answer to follow (Gemini's `responseJsonSchema` or
 * `responseSchema`), or undefined when it asks for free text.
 */
export function geminiResponseSchema(body: unknown): unknown {
  const config = record(record(body)["generationConfig"]);
  if (config["responseMimeType"] !== "application/json") return undefined;
  return config["responseJsonSchema"] ?? config["responseSchema"] ?? {};
}
