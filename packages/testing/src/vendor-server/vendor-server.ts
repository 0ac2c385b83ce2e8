import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createPromptCache, type PromptCacheStats } from "./prompt-cache.js";
import { validateAnthropicRequest } from "./validate-anthropic-request.js";
import { validateChatRequest } from "./validate-chat-request.js";
import { validateResponsesRequest } from "./validate-responses-request.js";
import { answerBody, defaultReplyText, errorBody, type VendorApi, type VendorApiRequest } from "./vendor-answers.js";

/** One request the vendor server received, exactly as it arrived. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Options of {@link startVendorServer}. */
export interface VendorServerOptions {
  /** The text of non-streamed answers, or a function of the request. Default: a short handover note naming the request's last `turn:<seq>`. */
  replyText?: string | ((request: VendorApiRequest) => string);
  /** Milliseconds to wait before answering a model API request (for benchmarks). Default 0. */
  delayMs?: number;
}

/** A failure to answer with instead of a model's answer. */
export interface VendorFailure {
  /** The error message in the body (default `simulated failure`). */
  message?: string;
  /** How many model API requests get it (default 1). */
  times?: number;
}

/**
 * A stand-in model vendor on 127.0.0.1 speaking the shapes of the Anthropic and OpenAI APIs.
 * `POST /v1/messages`, `POST /v1/chat/completions` and `POST /v1/responses` are checked as the vendors check them (400 with
 * the vendor's error JSON when invalid), measured against a simulated prompt cache, and answered with
 * usage in the vendor's shape (or the canned event stream for `stream: true`). Other paths answer as
 * a plain echo: `/v1/messages/count_tokens` → `{ input_tokens: 42 }`, `/v1/models` → one model.
 */
export interface VendorServer {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** The exact bytes of the server-sent events it streams for `stream: true` requests. */
  readonly streamed: Buffer;
  /** Totals of the simulated prompt cache over the valid model API requests so far. */
  cacheStats(): PromptCacheStats;
  /** Answers the next model API request(s) with `status` and an error body in the vendor's shape. */
  failNext(status: number, failure?: VendorFailure): void;
  close(): Promise<void>;
}

const EVENTS = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","role":"assistant"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Fixed "}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the build."}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

const JSON_HEADERS = { "content-type": "application/json", "x-vendor": "test" };
const VALIDATORS: Record<VendorApi, (body: unknown) => string | undefined> = {
  anthropic: validateAnthropicRequest,
  openai: validateChatRequest,
  "openai-responses": validateResponsesRequest,
};

function apiOf(method: string | undefined, path: string): VendorApi | undefined {
  if (method !== "POST") return undefined;
  const pathname = path.split("?")[0];
  if (pathname === "/v1/messages") return "anthropic";
  if (pathname === "/v1/chat/completions") return "openai";
  if (pathname === "/v1/responses") return "openai-responses";
  return undefined;
}

function parseJson(body: Buffer): { value: unknown } | { error: string } {
  try {
    return { value: body.byteLength > 0 ? (JSON.parse(body.toString("utf8")) as unknown) : {} };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function stream(response: ServerResponse): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  // Events in separate writes with pauses, so a proxy that buffered would be seen.
  EVENTS.forEach((event, index) => setTimeout(() => (index === EVENTS.length - 1 ? response.end(event) : response.write(event)), index * 30));
}

/** Starts the vendor server; it records every request and answers in the vendor's format. */
export async function startVendorServer(options: VendorServerOptions = {}): Promise<VendorServer> {
  const received: ReceivedRequest[] = [];
  const cache = createPromptCache();
  const failures: Array<{ status: number; message: string }> = [];
  const timers = new Set<NodeJS.Timeout>();
  let answered = 0;

  const answerApi = (api: VendorApi, body: Buffer, response: ServerResponse): void => {
    const failure = failures.shift();
    if (failure !== undefined) return void response.writeHead(failure.status, JSON_HEADERS).end(errorBody(api, failure.status, failure.message));
    const parsed = parseJson(body);
    const problem = "error" in parsed ? `invalid json: ${parsed.error}` : VALIDATORS[api](parsed.value);
    if (problem !== undefined || "error" in parsed) return void response.writeHead(400, JSON_HEADERS).end(errorBody(api, 400, problem ?? "invalid request"));
    const request = parsed.value as Record<string, unknown>;
    const model = String(request["model"]);
    const head =
      api === "anthropic"
        ? [request["system"] ?? null, request["tools"] ?? null]
        : api === "openai-responses"
          ? [request["instructions"] ?? null, request["tools"] ?? null]
          : [request["tools"] ?? null];
    const turns = api === "openai-responses" ? (typeof request["input"] === "string" ? [request["input"]] : request["input"]) : request["messages"];
    const usage = cache.measure(`${api}:${model}`, head, turns as unknown[]);
    if (request["stream"] === true) return stream(response);
    const text = body.toString("utf8");
    const reply = options.replyText ?? defaultReplyText;
    const replyText = typeof reply === "string" ? reply : reply({ api, body: request, text });
    answered += 1;
    response.writeHead(200, JSON_HEADERS).end(answerBody(api, answered, model, replyText, usage));
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: Buffer): void => {
    const path = request.url ?? "/";
    received.push({ method: request.method ?? "", path, headers: request.headers, body });
    const api = apiOf(request.method, path);
    if (api !== undefined) {
      if ((options.delayMs ?? 0) <= 0) return answerApi(api, body, response);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!response.destroyed) answerApi(api, body, response);
      }, options.delayMs);
      timers.add(timer);
      return;
    }
    const parsed = parseJson(body);
    if ("value" in parsed && (parsed.value as { stream?: unknown } | null)?.stream === true) return stream(response);
    response.writeHead(200, JSON_HEADERS);
    if (path.startsWith("/v1/messages/count_tokens")) response.end(JSON.stringify({ input_tokens: 42 }));
    else if (path.startsWith("/v1/models")) response.end(JSON.stringify({ data: [{ id: "model-a" }] }));
    else response.end(JSON.stringify({ id: "resp_1", echoed_bytes: body.byteLength }));
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => handle(request, response, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    received,
    streamed: Buffer.from(EVENTS.join("")),
    cacheStats: () => cache.stats(),
    failNext(status, failure = {}) {
      for (let count = 0; count < (failure.times ?? 1); count += 1) failures.push({ status, message: failure.message ?? "simulated failure" });
    },
    close: () =>
      new Promise((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
