import type { IncomingHttpHeaders } from "node:http";
import { HistoryFormat } from "@loupe/proto";

/** A model vendor the proxy forwards to; each has its own upstream and its own credentials. */
export type Vendor = "anthropic" | "openai" | "gemini";

/** One route of a vendor's API that the proxy forwards. */
export interface VendorRoute {
  vendor: Vendor;
  method: "GET" | "POST";
  /** The path as documented, for docs and error messages (`{model}` marks a path segment). */
  path: string;
  /** Matches the request path (without the query). */
  pattern: RegExp;
  /** Set when the body is a history whose tool results the app's rule may cut. */
  format?: HistoryFormat;
}

const MODEL = "[^/:]+";
// `suffix` "" is the model list, "/" one model, ":method" a method of one model.
const gemini = (version: "v1" | "v1beta", method: "GET" | "POST", suffix: "" | "/" | `:${string}`, format?: HistoryFormat): VendorRoute => ({
  vendor: "gemini",
  method,
  path: `/${version}/models${suffix === "" ? "" : `/{model}${suffix === "/" ? "" : suffix}`}`,
  pattern: new RegExp(`^/${version}/models${suffix === "" ? "" : `/${MODEL}${suffix === "/" ? "" : suffix}`}$`),
  ...(format === undefined ? {} : { format }),
});

/**
 * Every vendor route the proxy forwards — the routes Claude Code, Codex, Gemini CLI and OpenCode
 * call. Anything else under `/v1/` or `/v1beta/` that is not Loupe's own API is answered 404 by
 * Loupe and never leaves the machine, so a mistyped Loupe call cannot send tool output to a vendor.
 */
export const VENDOR_ROUTES: readonly VendorRoute[] = [
  { vendor: "anthropic", method: "POST", path: "/v1/messages", pattern: /^\/v1\/messages$/, format: HistoryFormat.ANTHROPIC },
  { vendor: "anthropic", method: "POST", path: "/v1/messages/count_tokens", pattern: /^\/v1\/messages\/count_tokens$/, format: HistoryFormat.ANTHROPIC },
  { vendor: "openai", method: "POST", path: "/v1/chat/completions", pattern: /^\/v1\/chat\/completions$/, format: HistoryFormat.OPENAI_CHAT },
  { vendor: "openai", method: "POST", path: "/v1/responses", pattern: /^\/v1\/responses$/, format: HistoryFormat.OPENAI_RESPONSES },
  { vendor: "openai", method: "POST", path: "/v1/responses/input_tokens", pattern: /^\/v1\/responses\/input_tokens$/, format: HistoryFormat.OPENAI_RESPONSES },
  // GET /v1/models is both Anthropic's and OpenAI's: the credentials sent decide (see vendorOfModels).
  { vendor: "openai", method: "GET", path: "/v1/models", pattern: /^\/v1\/models$/ },
  { vendor: "openai", method: "GET", path: "/v1/models/{model}", pattern: new RegExp(`^/v1/models/${MODEL}$`) },
  ...(["v1", "v1beta"] as const).flatMap((version) => [
    gemini(version, "POST", ":generateContent", HistoryFormat.GEMINI),
    gemini(version, "POST", ":streamGenerateContent", HistoryFormat.GEMINI),
    gemini(version, "POST", ":countTokens", HistoryFormat.GEMINI),
  ]),
  gemini("v1beta", "GET", ""),
  gemini("v1beta", "GET", "/"),
];

/**
 * The vendor whose `GET /v1/models…` this is, by the credentials sent: Anthropic's version or key
 * header, Gemini's key header or `key` parameter, else OpenAI.
 */
function vendorOfModels(headers: IncomingHttpHeaders, search: URLSearchParams): Vendor {
  if (headers["anthropic-version"] !== undefined || headers["x-api-key"] !== undefined) return "anthropic";
  if (headers["x-goog-api-key"] !== undefined || search.has("key")) return "gemini";
  return "openai";
}

/** The vendor route a request is for, or undefined when the proxy must not forward it. */
export function matchVendorRoute(method: string, url: URL, headers: IncomingHttpHeaders): VendorRoute | undefined {
  const route = VENDOR_ROUTES.find((candidate) => candidate.method === method && candidate.pattern.test(url.pathname));
  if (route === undefined) return undefined;
  if (route.vendor === "openai" && route.method === "GET") return { ...route, vendor: vendorOfModels(headers, url.searchParams) };
  return route;
}

/** True for paths in the vendors' API spaces (`/v1/…`, `/v1beta/…`), which the proxy owns after Loupe's own routes. */
export function isVendorSpace(pathname: string): boolean {
  return pathname.startsWith("/v1/") || pathname.startsWith("/v1beta/");
}

// Credentials and vendor-specific headers: each travels only to its own vendor.
const CREDENTIAL_HEADERS: Record<Vendor, readonly string[]> = {
  anthropic: ["x-api-key", "anthropic-version", "anthropic-beta", "anthropic-dangerous-direct-browser-access"],
  openai: ["openai-organization", "openai-project", "openai-beta"],
  gemini: ["x-goog-api-key", "x-goog-api-client", "x-goog-user-project"],
};

/** Headers that must not travel to `vendor`: the other vendors' credentials and vendor headers. */
export function foreignHeaders(vendor: Vendor): ReadonlySet<string> {
  return new Set((Object.keys(CREDENTIAL_HEADERS) as Vendor[]).filter((other) => other !== vendor).flatMap((other) => CREDENTIAL_HEADERS[other]));
}
