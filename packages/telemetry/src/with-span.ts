import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Span, Tracer } from "@opentelemetry/api";

/** Attribute values Loupe puts on spans and events. */
export type SpanAttributes = Record<string, string | number | boolean>;

const TRACER_NAME = "loupe";

/**
 * The tracer Loupe's own spans come from (scope "loupe"). It follows the global tracer
 * provider, so it may be taken before `startTelemetry` runs; until then spans are no-ops.
 */
export function getTracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

/**
 * Runs `fn` inside a new active span named `name` with `attributes`, and ends the span when
 * `fn` settles. When `fn` throws, the span records the exception, gets status ERROR with the
 * error's message and an `error.type` attribute (an AppError's code, else the error's name),
 * and the error is rethrown unchanged. `kind` is INTERNAL unless given (CLIENT for a call to a store or vendor).
 */
export function withSpan<T>(name: string, attributes: SpanAttributes, fn: (span: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  return getTracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      recordError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Adds an event named `name` to the active span; does nothing when no span is active. */
export function recordSpanEvent(name: string, attributes?: SpanAttributes): void {
  trace.getActiveSpan()?.addEvent(name, attributes);
}

function recordError(span: Span, error: unknown): void {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    span.recordException(error);
    span.setAttribute("error.type", typeof code === "string" ? code : error.name);
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    return;
  }
  span.recordException(String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
}
