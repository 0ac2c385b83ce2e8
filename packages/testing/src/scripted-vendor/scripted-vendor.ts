import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { estimateTokenCount, type VendorReply } from "./reply.js";
import { answerOther, errorReply, renderAction, routeOf, sideAction, viewOf, type VendorRoute } from "./routes.js";
import type { ModelAction, ScriptedApi, ScriptedRequest, VendorScript } from "./script.js";

/** One request the scripted vendor received, and what it answered. */
export interface RecordedRequest {
  method: string;
  /** The path with its query string. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON; the text when it is not JSON; undefined when empty. */
  body: unknown;
  /** The body's size in bytes as received (before any content-encoding was undone). */
  bytes: number;
  route: VendorRoute;
  /** For model requests: the script's view of the request. */
  view?: ScriptedRequest;
  /** For model requests: what the model did (for side requests, the short text answered). */
  action?: ModelAction;
  /** The HTTP status answered. */
  status: number;
  /** Set when the script threw: its message (the runtime got a final text naming it). */
  scriptError?: string;
}

/** Options of {@link startScriptedVendor}. */
export interface ScriptedVendorOptions {
  /** What the model does on each request that offers tools. */
  script: VendorScript;
  /** The answer to side requests (no tools offered). Default `"OK"`. JSON-mode side requests get JSON following their schema instead. */
  sideText?: string | ((request: ScriptedRequest) => string);
  /** The model name in listings (`GET …/models`). Default `"scripted-model"`. */
  model?: string;
}

/**
 * A scripted model vendor on 127.0.0.1 speaking the Anthropic Messages, OpenAI Responses, OpenAI
 * Chat Completions and Gemini APIs (streamed and not), for driving real agent runtimes. Each model
 * request is parsed into a {@link ScriptedRequest} and answered with the script's next action;
 * requests that offer no tools (titles, summaries, checks) get a short text and leave the script
 * where it was. Every request is recorded in `requests`, in arrival order.
 */
export interface ScriptedVendor {
  /** `http://127.0.0.1:<port>` (no trailing slash, no `/v1`). */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** The model requests that offered tools (the script's turns), in order. */
  scriptedRequests(): RecordedRequest[];
  /** Replaces the script for the requests still to come. */
  setScript(script: VendorScript): void;
  close(): Promise<void>;
}

function decode(headers: IncomingHttpHeaders, raw: Buffer): Buffer {
  const encoding = String(headers["content-encoding"] ?? "").toLowerCase();
  if (encoding === "gzip") return gunzipSync(raw);
  if (encoding === "deflate") return inflateSync(raw);
  if (encoding === "br") return brotliDecompressSync(raw);
  return raw;
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function send(response: ServerResponse, reply: VendorReply): Promise<void> {
  response.writeHead(reply.status, { "content-type": reply.contentType, "cache-control": "no-cache" });
  for (const chunk of reply.chunks) {
    if (response.destroyed) return;
    response.write(chunk);
    // A turn of the event loop between events, so they arrive as separate writes.
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

/** Starts a {@link ScriptedVendor} on 127.0.0.1 at a free port. */
export async function startScriptedVendor(options: ScriptedVendorOptions): Promise<ScriptedVendor> {
  const requests: RecordedRequest[] = [];
  const model = options.model ?? "scripted-model";
  let script = options.script;
  let serial = 0;

  const answerModel = (route: Extract<VendorRoute, { kind: "model" }>, entry: RecordedRequest, text: string): VendorReply => {
    const view = viewOf(route, entry.body);
    entry.view = view;
    let action: ModelAction;
    try {
      const side = typeof options.sideText === "function" ? options.sideText(view) : (options.sideText ?? "OK");
      action = view.side ? sideAction(view, side) : script(view);
    } catch (error) {
      entry.scriptError = error instanceof Error ? error.message : String(error);
      // A final text rather than an error status: runtimes retry errors with backoff, which would only slow the run.
      action = { kind: "text", text: `script failed: ${entry.scriptError}` };
    }
    entry.action = action;
    serial += 1;
    return renderAction(route, action, { model: view.model || model, serial, inputTokens: estimateTokenCount(text) }, entry.body);
  };

  const handle = (request: IncomingMessage, entry: RecordedRequest, raw: Buffer): VendorReply => {
    const route = entry.route;
    let text: string;
    try {
      text = decode(request.headers, raw).toString("utf8");
    } catch (error) {
      return errorReply(route.kind === "model" ? route.api : "anthropic", 400, `cannot decode body: ${String(error)}`);
    }
    entry.body = parseBody(text);
    if (route.kind !== "model") return answerOther(route, text, model);
    if (typeof entry.body !== "object" || entry.body === null) return errorReply(route.api, 400, "the body is not a JSON object");
    return answerModel(route, entry, text);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const method = request.method ?? "";
      const path = request.url ?? "/";
      const entry: RecordedRequest = {
        method,
        path,
        headers: request.headers,
        body: undefined,
        bytes: raw.byteLength,
        route: routeOf(method, path),
        status: 200,
      };
      requests.push(entry);
      const reply = handle(request, entry, raw);
      entry.status = reply.status;
      void send(response, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    requests,
    scriptedRequests: () => requests.filter((entry) => entry.view !== undefined && !entry.view.side),
    setScript(next) {
      script = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The API a recorded model or count request used, or undefined for other requests. */
export function apiOfRecorded(entry: RecordedRequest): ScriptedApi | undefined {
  return entry.route.kind === "model" || entry.route.kind === "count_tokens" ? entry.route.api : undefined;
}
