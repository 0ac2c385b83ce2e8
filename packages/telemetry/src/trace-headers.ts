import { context, propagation } from "@opentelemetry/api";

/**
 * Returns a copy of `headers` (default none) plus the propagation headers of the active
 * context (W3C `traceparent`, and `tracestate`/`baggage` when present), for carrying the trace
 * across NATS. Without an active span, or before `startTelemetry`, the copy has nothing added.
 * `headers` itself is not modified.
 */
export function injectTraceHeaders(headers: Readonly<Record<string, string>> = {}): Record<string, string> {
  const carrier: Record<string, string> = { ...headers };
  propagation.inject(context.active(), carrier);
  return carrier;
}

/**
 * Runs `fn` in the context carried by `headers` (as written by `injectTraceHeaders`), so the
 * spans it starts join the sender's trace as children of the sender's span. Headers without
 * trace context leave the active context as it is. Returns what `fn` returns.
 */
export function withExtractedContext<T>(headers: Readonly<Record<string, string>>, fn: () => T): T {
  return context.with(propagation.extract(context.active(), headers), fn);
}
