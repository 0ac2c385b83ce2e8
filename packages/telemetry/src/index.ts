export { startTelemetry } from "./start-telemetry.js";
export { withSpan, recordSpanEvent } from "./with-span.js";
export { injectTraceHeaders, withExtractedContext } from "./trace-headers.js";
export { countMetric, recordMetric, setGaugeMetric, LOUPE_COUNTERS, LOUPE_GAUGES, LOUPE_HISTOGRAMS } from "./loupe-metrics.js";
export { SpanStatusCode } from "@opentelemetry/api";
export type { Telemetry, TelemetryOptions } from "./start-telemetry.js";
export type { LoupeCounter, LoupeGauge, LoupeHistogram } from "./loupe-metrics.js";
export type { SpanAttributes } from "./with-span.js";
export type { Span, Tracer } from "@opentelemetry/api";
