import { hostname } from "node:os";
import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { defaultResource, resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { otlpMetricExporter, otlpTraceExporter, otlpProtocolOf, signalExporters } from "./otlp-exporters.js";
import { observeRuntime } from "./runtime-metrics.js";

/** Options of `startTelemetry`. */
export interface TelemetryOptions {
  /** `service.name` of every span and metric, e.g. "loupe-gateway" (OTEL_SERVICE_NAME overrides it). */
  serviceName: string;
  /** The OTEL_* variables to read; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Processors added after the exporters', e.g. a SimpleSpanProcessor over an InMemorySpanExporter in tests. */
  spanProcessors?: SpanProcessor[];
}

/** A started telemetry setup. */
export interface Telemetry {
  /** Whether spans go anywhere (an exporter or a test processor is set). */
  readonly tracing: boolean;
  /** This process's metrics as Prometheus text (exposition format 0.0.4), for GET /metrics. */
  metricsText(): Promise<string>;
  /**
   * Flushes and stops the exporters and unregisters the global providers, context manager and
   * propagator, so `startTelemetry` may run again. Idempotent; never rejects for an export failure.
   */
  shutdown(): Promise<void>;
}

let active = false;

function resourceOf(serviceName: string, env: Readonly<Record<string, string | undefined>>): Resource {
  const attributes: Record<string, string> = { "service.name": serviceName, "host.name": hostname(), "process.pid": String(process.pid) };
  for (const pair of (env["OTEL_RESOURCE_ATTRIBUTES"] ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at > 0) attributes[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  const override = env["OTEL_SERVICE_NAME"]?.trim();
  if (override) attributes["service.name"] = override;
  return defaultResource().merge(resourceFromAttributes(attributes));
}

function spanProcessorsOf(env: Readonly<Record<string, string | undefined>>): SpanProcessor[] {
  return signalExporters(env, "TRACES").map((name) =>
    name === "console" ? new SimpleSpanProcessor(new ConsoleSpanExporter()) : new BatchSpanProcessor(otlpTraceExporter(otlpProtocolOf(env, "TRACES"))),
  );
}

function metricReadersOf(env: Readonly<Record<string, string | undefined>>): MetricReader[] {
  return signalExporters(env, "METRICS")
    .filter((name) => name === "otlp")
    .map(() => new PeriodicExportingMetricReader({ exporter: otlpMetricExporter(otlpProtocolOf(env, "METRICS")) }));
}

/**
 * Starts OpenTelemetry for this process from the standard variables alone, the same in every mode:
 *
 * - traces go to the exporters OTEL_TRACES_EXPORTER names (`otlp`, `console`, `none`; default
 *   `otlp` when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, else none),
 *   over OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL (`http/protobuf` by default, `http/json`, `grpc`),
 *   sampled by OTEL_TRACES_SAMPLER; with no exporter no tracer provider is registered at all;
 * - metrics are always kept for `metricsText()` (GET /metrics) and also pushed over OTLP as
 *   OTEL_METRICS_EXPORTER says (same default);
 * - W3C trace context and baggage propagate through AsyncLocalStorage; OTEL_SDK_DISABLED=true
 *   turns everything off.
 *
 * Spans come from Loupe's own code (packages/grpc, the adapters, the services), not from
 * monkey-patching instrumentations, so no loader flag is needed.
 *
 * @throws Error when telemetry is already started in this process, or for an unknown exporter or protocol
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (active) throw new Error("telemetry is already started [call shutdown() first]");
  const env = options.env ?? process.env;
  const disabled = env["OTEL_SDK_DISABLED"]?.trim().toLowerCase() === "true";
  const resource = resourceOf(options.serviceName, env);
  const processors = disabled ? [] : [...spanProcessorsOf(env), ...(options.spanProcessors ?? [])];
  const tracerProvider = processors.length === 0 ? undefined : new NodeTracerProvider({ resource, spanProcessors: processors });
  tracerProvider?.register();
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = disabled ? undefined : new MeterProvider({ resource, readers: [prometheus, ...metricReadersOf(env)] });
  if (meterProvider) metrics.setGlobalMeterProvider(meterProvider);
  const stopRuntime = meterProvider === undefined ? undefined : observeRuntime(meterProvider);
  active = true;
  const serializer = new PrometheusSerializer();
  let stopping: Promise<void> | undefined;
  return {
    tracing: tracerProvider !== undefined,
    async metricsText() {
      if (meterProvider === undefined) return "";
      const { resourceMetrics } = await prometheus.collect();
      return serializer.serialize(resourceMetrics);
    },
    shutdown() {
      stopRuntime?.();
      stopping ??= Promise.all([tracerProvider?.shutdown(), meterProvider?.shutdown()])
        // A final export that fails is already reported by the SDK's diag logger; shutting down goes on.
        .catch(() => undefined)
        .then(() => {
          trace.disable();
          metrics.disable();
          context.disable();
          propagation.disable();
          active = false;
        });
      return stopping;
    },
  };
}
