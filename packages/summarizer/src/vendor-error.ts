import {
  APIConnectionError as AnthropicConnectionError,
  APIConnectionTimeoutError as AnthropicTimeoutError,
  APIError as AnthropicApiError,
  APIUserAbortError as AnthropicAbortError,
} from "@anthropic-ai/sdk";
import { AppError, isAppError, type ErrorCode } from "@loupe/errors";
import {
  APIConnectionError as OpenAIConnectionError,
  APIConnectionTimeoutError as OpenAITimeoutError,
  APIError as OpenAIApiError,
  APIUserAbortError as OpenAIAbortError,
} from "openai";

/** The vendor a summarizer talks to, as named in error messages. */
export type Vendor = "anthropic" | "openai";

/** Characters of a vendor's own error message kept in ours. */
const VENDOR_MESSAGE_CHARS = 300;

/** `text` with every occurrence of `secret` replaced, so a key a vendor echoes never reaches a log. */
export function redact(text: string, secret: string): string {
  return secret === "" ? text : text.split(secret).join("[redacted]");
}

/** The AppError code for an HTTP status of a vendor's answer. */
export function codeForStatus(status: number): ErrorCode {
  if (status === 401 || status === 403) return "permission_denied";
  if (status === 408) return "deadline_exceeded";
  if (status === 409 || status === 429 || status >= 500) return "unavailable";
  return "invalid_argument";
}

/**
 * Translates an error of a vendor SDK call into an AppError: 401/403 → `permission_denied`, other 4xx
 * → `invalid_argument`, 408 → `deadline_exceeded`, 409/429/5xx → `unavailable`, connection failures →
 * `unavailable`, timeouts → `deadline_exceeded`, an abort through the caller's signal → `cancelled`.
 * The API key never appears in the message or the cause: the vendor's text is redacted and the SDK
 * error is replaced by a plain Error with the redacted text.
 */
export function appErrorFromVendor(vendor: Vendor, error: unknown, apiKey: string, signal?: AbortSignal): AppError {
  if (isAppError(error)) return error;
  const text = redact(error instanceof Error ? error.message : String(error), apiKey);
  const cause = Object.assign(new Error(text), { name: error instanceof Error ? error.name : "Error" });
  if (signal?.aborted === true || error instanceof AnthropicAbortError || error instanceof OpenAIAbortError)
    return new AppError("cancelled", `${vendor} request cancelled`, { cause });
  if (error instanceof AnthropicTimeoutError || error instanceof OpenAITimeoutError)
    return new AppError("deadline_exceeded", `${vendor} request timed out`, { cause });
  if (error instanceof AnthropicConnectionError || error instanceof OpenAIConnectionError)
    return new AppError("unavailable", `${vendor} unreachable [reason=${text.slice(0, VENDOR_MESSAGE_CHARS)}]`, { cause });
  if ((error instanceof AnthropicApiError || error instanceof OpenAIApiError) && typeof error.status === "number") {
    const code = codeForStatus(error.status);
    if (code === "permission_denied") return new AppError(code, `${vendor} refused the api key [status=${String(error.status)}]`, { cause });
    const detail = redact(vendorMessage(error) ?? "", apiKey).slice(0, VENDOR_MESSAGE_CHARS);
    return new AppError(code, `${vendor} answered ${String(error.status)} [status=${String(error.status)}${detail === "" ? "" : `, message=${detail}`}]`, {
      cause,
    });
  }
  return new AppError("internal", `${vendor} call failed [reason=${text.slice(0, VENDOR_MESSAGE_CHARS)}]`, { cause });
}

/** The vendor's own message from its error body (`{ error: { message } }`), when there is one. */
function vendorMessage(error: { error?: unknown }): string | undefined {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const message = body?.error?.message ?? body?.message;
  return typeof message === "string" ? message : undefined;
}
