import { OTLPMetricExporter as GrpcMetricExporter } from "@opentelemetry/exporter-metrics-otlp-grpc";
import { OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { OTLPTraceExporter as GrpcTraceExporter } from "@opentelemetry/exporter-trace-otlp-grpc";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { PushMetricExporter } from "@opentelemetry/sdk-metrics";
import type { SpanExporter } from "@opentelemetry/sdk-trace-base";

/** The OTLP transports of the specification. */
export type OtlpProtocol = "http/protobuf" | "http/json" | "grpc";
const PROTOCOLS: readonly OtlpProtocol[] = ["http/protobuf", "http/json", "grpc"];
const EXPORTERS = ["otlp", "console", "none"] as const;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The exporters OTEL_<signal>_EXPORTER names (comma-separated; `none` alone = none). Unset: `otlp`
 * when an OTLP endpoint is configured for the signal, else none — telemetry costs nothing until asked for.
 * @throws Error for a name other than otlp, console or none
 */
export function signalExporters(env: Env, signal: "TRACES" | "METRICS"): Array<"otlp" | "console"> {
  const given = env[`OTEL_${signal}_EXPORTER`]?.trim();
  const endpoint = env["OTEL_EXPORTER_OTLP_ENDPOINT"]?.trim() || env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim();
  const names = given ? given.split(",").map((name) => name.trim().toLowerCase()) : endpoint ? ["otlp"] : [];
  for (const name of names) {
    if (!(EXPORTERS as readonly string[]).includes(name)) {
      throw new Error(`OTEL_${signal}_EXPORTER names an exporter Loupe does not ship [exporter=${name}, known=${EXPORTERS.join("|")}]`);
    }
  }
  return names.filter((name): name is "otlp" | "console" => name !== "none" && (signal === "TRACES" || name === "otlp"));
}

/**
 * OTEL_EXPORTER_OTLP_<signal>_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else `http/protobuf`.
 * @throws Error for another value
 */
export function otlpProtocolOf(env: Env, signal: "TRACES" | "METRICS"): OtlpProtocol {
  const given = (env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ?? env["OTEL_EXPORTER_OTLP_PROTOCOL"] ?? "http/protobuf").trim();
  if (!(PROTOCOLS as readonly string[]).includes(given)) {
    throw new Error(`unknown OTLP protocol [protocol=${given}, known=${PROTOCOLS.join("|")}]`);
  }
  return given as OtlpProtocol;
}

/** An OTLP span exporter over `protocol`; it reads its endpoint, headers and timeout from OTEL_EXPORTER_OTLP_* itself. */
export function otlpTraceExporter(protocol: OtlpProtocol): SpanExporter {
  switch (protocol) {
    case "http/protobuf":
      return new ProtoTraceExporter();
    case "http/json":
      return new JsonTraceExporter();
    case "grpc":
      return new GrpcTraceExporter();
  }
}

/** An OTLP metric exporter over `protocol`. */
export function otlpMetricExporter(protocol: OtlpProtocol): PushMetricExporter {
  switch (protocol) {
    case "http/protobuf":
      return new ProtoMetricExporter();
    case "http/json":
      return new JsonMetricExporter();
    case "grpc":
      return new GrpcMetricExporter();
  }
}
