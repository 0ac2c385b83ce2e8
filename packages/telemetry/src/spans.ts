// The span helpers alone, on the OpenTelemetry API only (no SDK, no exporters): what libraries that make
// spans import (`@loupe/telemetry/spans`), so that loading them costs nothing until a process starts telemetry.
export { withSpan, recordSpanEvent } from "./with-span.js";
export type { SpanAttributes } from "./with-span.js";
export { injectTraceHeaders, withExtractedContext } from "./trace-headers.js";
export { SpanKind } from "@opentelemetry/api";
export type { Span } from "@opentelemetry/api";
