import { anthropicCountTokens, anthropicError, anthropicReply, parseAnthropicRequest } from "./anthropic-api.js";
import { chatReply, parseChatRequest } from "./chat-api.js";
import { record, scriptedRequestOf, type ParsedConversation } from "./conversation.js";
import { geminiCountTokens, geminiError, geminiReply, geminiResponseSchema, parseGeminiRequest } from "./gemini-api.js";
import { jsonReply, type ReplyContext, type VendorReply } from "./reply.js";
import { openaiError, parseResponsesRequest, responsesReply } from "./responses-api.js";
import type { ModelAction, ScriptedApi, ScriptedRequest } from "./script.js";
import { sampleOfSchema } from "./side-answer.js";

/** What a request path asks for. */
export type VendorRoute =
  { kind: "model"; api: ScriptedApi; model?: string; stream?: boolean } | { kind: "count_tokens"; api: ScriptedApi } | { kind: "models" } | { kind: "other" };

const GEMINI_METHOD = /\/models\/([^/:]+):([A-Za-z]+)$/;

/**
 * Which API and operation a request path names. Paths are matched by their ending, so a base URL
 * with a prefix (a proxy's `/anthropic/v1/messages`) is still recognised.
 */
export function routeOf(method: string, path: string): VendorRoute {
  const pathname = path.split("?")[0] ?? "";
  const gemini = GEMINI_METHOD.exec(pathname);
  if (method === "POST" && gemini !== null) {
    const model = decodeURIComponent(gemini[1] ?? "");
    if (gemini[2] === "countTokens") return { kind: "count_tokens", api: "gemini" };
    if (gemini[2] === "generateContent") return { kind: "model", api: "gemini", model, stream: false };
    if (gemini[2] === "streamGenerateContent") return { kind: "model", api: "gemini", model, stream: true };
    return { kind: "other" };
  }
  if (method === "POST" && pathname.endsWith("/messages/count_tokens")) return { kind: "count_tokens", api: "anthropic" };
  if (method === "POST" && pathname.endsWith("/messages")) return { kind: "model", api: "anthropic" };
  if (method === "POST" && pathname.endsWith("/responses")) return { kind: "model", api: "openai-responses" };
  if (method === "POST" && pathname.endsWith("/chat/completions")) return { kind: "model", api: "openai-chat" };
  if (method === "GET" && /\/models\/?$/.test(pathname)) return { kind: "models" };
  return { kind: "other" };
}

/** Parses a model request of any API into the script's view. */
export function viewOf(route: Extract<VendorRoute, { kind: "model" }>, body: unknown): ScriptedRequest {
  const parsers: Record<ScriptedApi, () => ParsedConversation> = {
    anthropic: () => parseAnthropicRequest(body),
    "openai-responses": () => parseResponsesRequest(body),
    "openai-chat": () => parseChatRequest(body),
    gemini: () => parseGeminiRequest(body, route.model ?? ""),
  };
  return scriptedRequestOf(route.api, parsers[route.api](), body);
}

/** The text of a side request's answer: JSON following the schema it asks for, else `text`. */
export function sideAction(view: ScriptedRequest, text: string): ModelAction {
  const schema = view.api === "gemini" ? geminiResponseSchema(view.body) : undefined;
  return { kind: "text", text: schema === undefined ? text : JSON.stringify(sampleOfSchema(schema)) };
}

/** Renders a model action in the route's API. */
export function renderAction(route: Extract<VendorRoute, { kind: "model" }>, action: ModelAction, context: ReplyContext, body: unknown): VendorReply {
  const stream = route.stream ?? record(body)["stream"] === true;
  if (route.api === "anthropic") return anthropicReply(action, context, stream);
  if (route.api === "openai-responses") return responsesReply(action, context, body, stream);
  if (route.api === "openai-chat") return chatReply(action, context, body, stream);
  return geminiReply(action, context, stream);
}

/** The answer to a request that is not a model turn. */
export function answerOther(route: Exclude<VendorRoute, { kind: "model" }>, bodyText: string, model: string): VendorReply {
  if (route.kind === "count_tokens") return route.api === "gemini" ? geminiCountTokens(bodyText) : anthropicCountTokens(bodyText);
  if (route.kind === "models") {
    // One body that lists the model for the Anthropic/OpenAI (`data`) and Gemini (`models`) listings.
    const entry = {
      id: model,
      object: "model",
      type: "model",
      display_name: model,
      created: 1_700_000_000,
      created_at: "2024-01-01T00:00:00Z",
      owned_by: "loupe-test",
    };
    const gemini = { name: `models/${model}`, displayName: model, supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"] };
    return jsonReply({ object: "list", data: [entry], has_more: false, first_id: model, last_id: model, models: [gemini] });
  }
  return jsonReply({ error: { message: "not found", type: "not_found_error", code: 404 } }, 404);
}

/** An error answer in the API's own shape. */
export function errorReply(api: ScriptedApi, status: number, message: string): VendorReply {
  if (api === "anthropic") return anthropicError(status, message);
  if (api === "gemini") return geminiError(status, message);
  return openaiError(status, message);
}
