import type { Vendor } from "./vendor-routes.js";

/** Why the proxy answers instead of the vendor. */
export type ProxyFailure = "too_large" | "upstream_unreachable" | "internal";

const STATUS: Record<ProxyFailure, number> = { too_large: 413, upstream_unreachable: 502, internal: 500 };
const ANTHROPIC_TYPE: Record<ProxyFailure, string> = { too_large: "request_too_large", upstream_unreachable: "api_error", internal: "api_error" };
const OPENAI_TYPE: Record<ProxyFailure, string> = { too_large: "invalid_request_error", upstream_unreachable: "server_error", internal: "server_error" };
const GEMINI_STATUS: Record<ProxyFailure, string> = { too_large: "INVALID_ARGUMENT", upstream_unreachable: "UNAVAILABLE", internal: "INTERNAL" };

/** An error answer of the proxy: the HTTP status and a body in the vendor's own error shape. */
export interface VendorErrorAnswer {
  status: number;
  body: string;
}

/**
 * The error a runtime expects from `vendor` when the proxy itself cannot forward a request, so the
 * runtime's own error handling (retries, messages to the user) works as with the vendor:
 * Anthropic `{type:"error", error:{type, message}}`, OpenAI `{error:{message, type, param, code}}`,
 * Gemini `{error:{code, message, status}}`. The message starts with `loupe proxy:` so the user sees
 * where it came from.
 */
export function vendorErrorAnswer(vendor: Vendor, failure: ProxyFailure, message: string): VendorErrorAnswer {
  const status = STATUS[failure];
  const text = `loupe proxy: ${message}`;
  switch (vendor) {
    case "anthropic":
      return { status, body: JSON.stringify({ type: "error", error: { type: ANTHROPIC_TYPE[failure], message: text } }) };
    case "openai":
      return { status, body: JSON.stringify({ error: { message: text, type: OPENAI_TYPE[failure], param: null, code: failure } }) };
    case "gemini":
      return { status, body: JSON.stringify({ error: { code: status, message: text, status: GEMINI_STATUS[failure] } }) };
  }
}
