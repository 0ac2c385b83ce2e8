export { startTelemetry } from "./start-telemetry.js";
export { withSpan, recordSpanEvent, getTracer } from "./with-span.js";
export { injectTraceHeaders, withExtractedContext } from "./trace-headers.js";
export { SpanStatusCode } from "@opentelemetry/api";
export type { Telemetry, TelemetryExporter, TelemetryOptions } from "./start-telemetry.js";
export type { SpanAttributes } from "./with-span.js";
export type { Span, Tracer } from "@opentelemetry/api";
export type { SpanProcessor } from "@opentelemetry/sdk-trace-base";
