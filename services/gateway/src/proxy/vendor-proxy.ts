import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import { AppError, isAppError } from "@loupe/errors";
import type { TokenCounter } from "@loupe/projection";
import { HistoryFormat } from "@loupe/proto";
import type { HttpRoute, Logger } from "@loupe/runtime";
import { recordSpanEvent, withSpan } from "@loupe/telemetry";
import { cutHistoryFor } from "../cut-history/cut-history-handler.js";
import type { HistoryProjector } from "../cut-history/history-projector.js";
import type { SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";

/** Where the proxy forwards, per vendor. */
export interface VendorProxyOptions {
  anthropicBaseUrl: string;
  openAiBaseUrl: string;
  /** Largest request body accepted. */
  maxBodyBytes: number;
  tenant: string;
  rules: SourceRules;
  state: StateStore;
  counter: TokenCounter;
  /** Replaces results by first views for apps whose rule says mode "project". */
  projectText?: HistoryProjector;
  logger: Logger;
}

const FORMAT_BY_PATH: Record<string, HistoryFormat> = {
  "/v1/messages": HistoryFormat.ANTHROPIC,
  "/v1/chat/completions": HistoryFormat.OPENAI_CHAT,
  "/v1/responses": HistoryFormat.OPENAI_RESPONSES,
};
// Hop-by-hop headers and Loupe's own never travel upstream; content-length is set for the body sent.
const DROPPED = new Set(["host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer", "content-length", "x-loupe-source", "x-proxium-source"]);
/** The response header that carries the tokens the cut saved. */
export const SAVED_TOKENS_HEADER = "x-loupe-saved-tokens";

function isAnthropic(path: string, headers: IncomingHttpHeaders): boolean {
  if (path.startsWith("/v1/messages")) return true;
  if (path.startsWith("/v1/chat/") || path.startsWith("/v1/responses")) return false;
  return headers["anthropic-version"] !== undefined || headers["x-api-key"] !== undefined;
}

async function readBody(request: IncomingMessage, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).byteLength;
    if (size > limit) throw new AppError("resource_exhausted", `request body larger than the limit [limit=${String(limit)}]`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** Sends `body` to `target` with the caller's headers and pipes the answer back untouched (streams included). */
function forward(request: IncomingMessage, response: ServerResponse, target: URL, body: Uint8Array, extraHeaders: Record<string, string>): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !DROPPED.has(name)) headers[name] = value;
  headers["content-length"] = String(body.byteLength);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const upstream = send(target, { method: request.method ?? "POST", headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...extraHeaders });
      answer.pipe(response);
      answer.on("end", resolve);
      answer.on("error", reject);
    });
    upstream.on("error", reject);
    // The caller leaving (the response closing before it finished) ends the upstream call too.
    response.on("close", () => {
      if (!response.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  });
}

/**
 * The vendor proxy on the gateway's HTTP port: Anthropic `POST /v1/messages`,
 * OpenAI `POST /v1/chat/completions` and `POST /v1/responses` get each
 * eligible tool result in their history cut per the app's rule (header
 * `x-loupe-source`, or `x-proxium-source`); every other `/v1/` path passes
 * through. Bodies with nothing to cut, and all responses (streams included),
 * travel byte for byte. Auth headers are forwarded and never logged.
 */
export function createVendorProxy(options: VendorProxyOptions): HttpRoute {
  return async (request, response) => {
    const url = new URL(request.url ?? "/", "http://loupe.invalid");
    if (!url.pathname.startsWith("/v1/")) return false;
    const base = isAnthropic(url.pathname, request.headers) ? options.anthropicBaseUrl : options.openAiBaseUrl;
    const target = new URL(base.replace(/\/+$/, "") + url.pathname + url.search);
    const format = request.method === "POST" ? FORMAT_BY_PATH[url.pathname] : undefined;
    const source = headerValue(request.headers, "x-loupe-source") || headerValue(request.headers, "x-proxium-source");
    await withSpan("loupe.proxy", { "loupe.path": url.pathname, "loupe.source": source }, async (span) => {
      try {
        const body = await readBody(request, options.maxBodyBytes);
        let sent = body;
        let saved = 0;
        if (format !== undefined && source !== "") {
          const cut = await cutHistoryFor({ source, format, historyJson: body }, options.tenant, options.rules, options.state, options.counter, options.projectText);
          sent = cut.historyJson ?? body;
          saved = cut.savedTokens ?? 0;
          span.setAttributes({ "loupe.cut_results": cut.cutResults ?? 0, "loupe.saved_tokens": saved });
        }
        await forward(request, response, target, sent, { [SAVED_TOKENS_HEADER]: String(saved) });
      } catch (error) {
        recordSpanEvent("loupe.proxy.failed", { path: url.pathname });
        if (response.headersSent) {
          response.destroy();
          return;
        }
        const status = isAppError(error) ? (error.code === "invalid_argument" ? 400 : error.code === "resource_exhausted" ? 413 : 502) : 502;
        options.logger.warn("proxy request failed", { path: url.pathname, status, error: isAppError(error) ? error.message : "upstream unreachable" });
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: isAppError(error) ? error.message : "upstream unreachable" }));
      }
    });
    return true;
  };
}
