import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { AppError, isAppError } from "@loupe/errors";
import type { TokenCounter } from "@loupe/projection";
import { sendHttpError, type HttpRoute, type Logger } from "@loupe/runtime";
import type { SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";
import { recordSpanEvent, withSpan } from "@loupe/telemetry";
import { cutHistoryFor, type CutObserver } from "../cut-history/cut-history-handler.js";
import type { ImageCutDeps } from "../cut-history/images/cut-images.js";
import { requireSourceScope, type Authenticator } from "../auth/authenticator.js";
import { httpPrincipal } from "../auth/http-principal.js";
import type { HistoryProjector } from "../cut-history/history-projector.js";
import { forward, UpstreamError } from "./forward.js";
import { vendorErrorAnswer } from "./vendor-errors.js";
import { foreignHeaders, isVendorSpace, matchVendorRoute, VENDOR_ROUTES, type Vendor, type VendorRoute } from "./vendor-routes.js";

/** Where the proxy forwards, per vendor. */
export interface VendorProxyOptions {
  anthropicBaseUrl: string;
  openAiBaseUrl: string;
  geminiBaseUrl: string;
  /** Largest request body accepted. */
  maxBodyBytes: number;
  /** Who is calling: with auth on, the `x-loupe-token` header's tenant (the authorization header is the vendor's). */
  auth: Authenticator;
  rules: SourceRules;
  state: StateStore;
  counter: TokenCounter;
  /** Replaces results by first views for apps whose rule says mode "project". */
  projectText?: HistoryProjector;
  /** Cuts screenshots for apps whose rule sets image_keep_last or image_dedupe. */
  imageCuts?: ImageCutDeps;
  /** Told what each cut did (metrics, the ledger). */
  observeCut?: CutObserver;
  logger: Logger;
}

/** The response header that carries the tokens the cut saved. */
export const SAVED_TOKENS_HEADER = "x-loupe-saved-tokens";
/** The response header that says the app's rule cannot cut anything of this request (keep_tools matches none of its tools). */
export const WARNING_HEADER = "x-loupe-warning";

async function readBody(request: IncomingMessage, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).byteLength;
    if (size > limit) throw new AppError("resource_exhausted", `request body larger than the limit [limit_bytes=${String(limit)}]`, { reason: "too_large" });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function sendJson(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(body);
}

/** The upstream URL of a request: the vendor's base, the path, and the query less another vendor's key parameter. */
function targetOf(base: string, url: URL, vendor: Vendor): URL {
  const target = new URL(base.replace(/\/+$/, "") + url.pathname + url.search);
  if (vendor !== "gemini") target.searchParams.delete("key");
  return target;
}

const KNOWN_ROUTES = [...new Set(VENDOR_ROUTES.map((route) => `${route.method} ${route.path}`))].join(", ");

/** The body to send: cut per the app's rule; a body the cut cannot read goes as it is (the vendor answers it). */
async function cutBody(
  route: VendorRoute,
  app: { tenant: string; source: string; sessionId: string },
  body: Uint8Array,
  options: VendorProxyOptions,
): Promise<{ body: Uint8Array; saved: number; cutResults: number; warning: string }> {
  const { tenant, source, sessionId } = app;
  if (route.format === undefined || source === "") return { body, saved: 0, cutResults: 0, warning: "" };
  try {
    const request = { source, sessionId, format: route.format, historyJson: body };
    const cut = await cutHistoryFor(request, tenant, options.rules, options.state, options.counter, options.projectText, options.imageCuts, options.observeCut);
    return { body: cut.historyJson ?? body, saved: cut.savedTokens ?? 0, cutResults: cut.cutResults ?? 0, warning: cut.warning ?? "" };
  } catch (error) {
    // A request the cut cannot parse is the vendor's to refuse, in its own words; a cut that fails
    // (state store down) must not fail the agent's call: the request goes as it is.
    if (!(isAppError(error) && error.code === "invalid_argument"))
      options.logger.warn("history cut failed; forwarding uncut", { path: route.path, error: isAppError(error) ? error.message : String(error) });
    return { body, saved: 0, cutResults: 0, warning: "" };
  }
}

/**
 * The vendor proxy on the gateway's HTTP port. It forwards only the vendor routes it knows
 * (`VENDOR_ROUTES`: Anthropic Messages, OpenAI Chat Completions and Responses, Gemini
 * generateContent/streamGenerateContent/countTokens, the model lists), each to its own vendor and
 * without any other vendor's credentials; every other path under `/v1/` or `/v1beta/` answers 404
 * and goes nowhere. History bodies get each eligible tool result cut per the app's rule (header
 * `x-loupe-source`, or `x-proxium-source`); bodies with nothing to cut, and all answers (streams
 * included), travel byte for byte. When the proxy itself cannot forward (body too large, upstream
 * unreachable) it answers in the vendor's own error shape. Auth headers are never logged.
 */
export function createVendorProxy(options: VendorProxyOptions): HttpRoute {
  const bases: Record<Vendor, string> = { anthropic: options.anthropicBaseUrl, openai: options.openAiBaseUrl, gemini: options.geminiBaseUrl };
  return async (request, response) => {
    const url = new URL(request.url ?? "/", "http://loupe.invalid");
    if (!isVendorSpace(url.pathname)) return false;
    const route = matchVendorRoute(request.method ?? "GET", url, request.headers);
    if (route === undefined) {
      sendHttpError(
        response,
        new AppError(
          "not_found",
          `no Loupe endpoint and no proxied vendor route [method=${request.method ?? ""}, path=${url.pathname}]; the proxy forwards ${KNOWN_ROUTES}`,
        ),
      );
      return true;
    }
    const source = headerValue(request.headers, "x-loupe-source") || headerValue(request.headers, "x-proxium-source");
    let tenant: string;
    try {
      const principal = await httpPrincipal(options.auth, request, true);
      requireSourceScope(principal, source);
      tenant = principal.tenant;
    } catch (error) {
      if (!isAppError(error)) throw error;
      sendHttpError(response, error);
      return true;
    }
    await withSpan("loupe.proxy", { "loupe.path": url.pathname, "loupe.vendor": route.vendor, "loupe.source": source }, async (span) => {
      try {
        // The conversation, when the runtime names it (x-loupe-session); else it is recognised by its opening.
        const sessionId = headerValue(request.headers, "x-loupe-session").slice(0, 256);
        const cut = await cutBody(route, { tenant, source, sessionId }, await readBody(request, options.maxBodyBytes), options);
        span.setAttributes({ "loupe.cut_results": cut.cutResults, "loupe.saved_tokens": cut.saved });
        const extra: Record<string, string> = { [SAVED_TOKENS_HEADER]: String(cut.saved) };
        if (cut.warning !== "") extra[WARNING_HEADER] = cut.warning;
        await forward(request, response, targetOf(bases[route.vendor], url, route.vendor), cut.body, extra, foreignHeaders(route.vendor));
      } catch (error) {
        recordSpanEvent("loupe.proxy.failed", { path: url.pathname });
        if (response.headersSent) {
          response.destroy();
          return;
        }
        const tooLarge = isAppError(error) && error.code === "resource_exhausted";
        const failure = tooLarge ? "too_large" : error instanceof UpstreamError ? "upstream_unreachable" : "internal";
        const message = tooLarge || error instanceof UpstreamError ? (error as Error).message : "the request could not be forwarded";
        const answer = vendorErrorAnswer(route.vendor, failure, message);
        options.logger.warn("proxy request failed", {
          path: url.pathname,
          vendor: route.vendor,
          status: answer.status,
          error: error instanceof Error ? error.message : String(error),
        });
        sendJson(response, answer.status, answer.body);
      }
    });
    return true;
  };
}
