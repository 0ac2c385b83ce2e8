// Span assertions in tests (OTel's InMemorySpanExporter pattern), re-exported so that test code
// needs no OpenTelemetry dependency of its own:
//   const exporter = new InMemorySpanExporter();
//   startTelemetry({ serviceName: "test", spanProcessors: [new SimpleSpanProcessor(exporter)] });
export { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
export type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
