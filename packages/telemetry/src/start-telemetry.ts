import { hostname } from "node:os";
import { context, propagation, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { GrpcInstrumentation } from "@opentelemetry/instrumentation-grpc";
import { IORedisInstrumentation } from "@opentelemetry/instrumentation-ioredis";
import { defaultResource, envDetector, processDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { SpanProcessor } from "@opentelemetry/sdk-trace-base";

/** Where finished spans go. */
export type TelemetryExporter = "otlp" | "console" | "none";

/** Options of `startTelemetry`. */
export interface TelemetryOptions {
  /** `service.name` of every span (overrides OTEL_SERVICE_NAME), e.g. "loupe-gateway". */
  serviceName: string;
  /**
   * "otlp": OTLP over HTTP/protobuf through a batch processor; the SDK reads the standard
   * OTEL_EXPORTER_OTLP_* and OTEL_BSP_* variables itself. "console": each span printed as it
   * ends. "none" (default): no exporter. The caller decides (e.g. "none" when
   * OTEL_EXPORTER_OTLP_ENDPOINT is unset); OTEL_TRACES_EXPORTER is not consulted.
   */
  exporter?: TelemetryExporter;
  /** Processors added after the exporter's, e.g. a SimpleSpanProcessor over an InMemorySpanExporter in tests. */
  spanProcessors?: SpanProcessor[];
}

/** A started telemetry setup. */
export interface Telemetry {
  /**
   * Flushes and stops the exporters, disables the instrumentations and unregisters the global
   * tracer provider, context manager and propagator, so `startTelemetry` may run again.
   * Idempotent; never rejects for an export failure (the SDK reports those through its diag logger).
   */
  shutdown(): Promise<void>;
}

let active = false;

/**
 * Starts OpenTelemetry tracing for this process: a NodeSDK with the grpc-js and ioredis
 * instrumentations, W3C trace context and baggage propagation (or OTEL_PROPAGATORS),
 * AsyncLocalStorage context, and a resource with OTEL_RESOURCE_ATTRIBUTES, the process and
 * host.name. Only traces: no metrics or logs pipelines. Honours OTEL_SDK_DISABLED. A span is
 * handed to the processors as soon as it ends.
 *
 * Call it first in `main.ts`, before the modules to instrument are imported; in ESM the
 * instrumentations also need the loader hook: `node --import @loupe/telemetry/register …`.
 *
 * @throws Error when telemetry is already started in this process (shut it down first)
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (active) throw new Error("telemetry is already started [call shutdown() first]");
  const instrumentations = [new GrpcInstrumentation(), new IORedisInstrumentation()];
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    // Only detectors whose attributes are known at once: the host detector's asynchronous
    // host.id would hold every span back until it resolved (so a test's InMemorySpanExporter
    // would not see a span right after it ended). host.name is added here instead.
    resource: defaultResource().merge(resourceFromAttributes({ "host.name": hostname() })),
    resourceDetectors: [envDetector, processDetector],
    spanProcessors: [...exporterProcessors(options.exporter ?? "none"), ...(options.spanProcessors ?? [])],
    // Empty lists, not omitted: omitted, the SDK would set up OTLP metrics and logs from env defaults.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations,
  });
  sdk.start();
  active = true;
  let stopping: Promise<void> | undefined;
  return {
    shutdown() {
      stopping ??= sdk
        .shutdown()
        // A final export that fails is already reported by the SDK's diag logger; shutting down goes on.
        .catch(() => undefined)
        .finally(() => {
          for (const instrumentation of instrumentations) instrumentation.disable();
          trace.disable();
          context.disable();
          propagation.disable();
          active = false;
        });
      return stopping;
    },
  };
}

function exporterProcessors(exporter: TelemetryExporter): SpanProcessor[] {
  switch (exporter) {
    case "otlp":
      return [new BatchSpanProcessor(new OTLPTraceExporter())];
    case "console":
      return [new SimpleSpanProcessor(new ConsoleSpanExporter())];
    case "none":
      return [];
  }
}
