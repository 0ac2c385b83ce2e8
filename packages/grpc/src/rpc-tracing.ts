import type { DescMethod } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import {
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Histogram,
  type MeterProvider,
  type Span,
} from "@opentelemetry/api";

// Spans and metrics of every call through packages/grpc, after the OpenTelemetry RPC conventions,
// made here rather than by the grpc-js instrumentation (which in ESM needs a loader hook): the W3C
// trace context goes on the call's metadata in both directions, so one trace crosses every Loupe
// service. Until an SDK is registered (`@loupe/telemetry`), every call below is a no-op.

// Taken per call: a tracer kept from before a telemetry restart would stay with the old provider.
const tracer = () => trace.getTracer("@loupe/grpc");

// The API's metrics have no proxy: the histograms are made from the meter provider in force, again when it changes.
let durations: { provider: MeterProvider; server: Histogram; client: Histogram } | undefined;
function durationOf(direction: "server" | "client"): Histogram {
  const provider = metrics.getMeterProvider();
  if (durations?.provider !== provider) {
    const meter = provider.getMeter("@loupe/grpc");
    durations = {
      provider,
      server: meter.createHistogram("rpc.server.duration", { unit: "ms", description: "Duration of inbound RPCs" }),
      client: meter.createHistogram("rpc.client.duration", { unit: "ms", description: "Duration of outbound RPCs" }),
    };
  }
  return durations[direction];
}

/** How grpc-js's own instrumentation names a call's span: `grpc.<package.Service>/<Method>`. */
export const rpcSpanName = (method: DescMethod): string => `grpc.${method.parent.typeName}/${method.name}`;

const rpcAttributes = (method: DescMethod) => ({ "rpc.system": "grpc", "rpc.service": method.parent.typeName, "rpc.method": method.name });

/** One traced call: `finish` ends its span with the call's status code and records its duration. */
export interface TracedCall {
  readonly context: Context;
  finish(code: number, message?: string): void;
}

function traced(span: Span, parent: Context, method: DescMethod, direction: "server" | "client"): TracedCall {
  const started = performance.now();
  let done = false;
  return {
    context: trace.setSpan(parent, span),
    finish(code, message) {
      if (done) return;
      done = true;
      span.setAttribute("rpc.grpc.status_code", code);
      if (code !== Number(grpc.status.OK)) span.setStatus({ code: SpanStatusCode.ERROR, ...(message === undefined ? {} : { message }) });
      span.end();
      durationOf(direction).record(performance.now() - started, { ...rpcAttributes(method), "rpc.grpc.status_code": code });
    },
  };
}

/** A server span for an inbound call, child of the trace context its metadata carries (lower-cased keys). */
export function startServerCall(method: DescMethod, metadata: Readonly<Record<string, string>>): TracedCall {
  const parent = propagation.extract(ROOT_CONTEXT, metadata);
  const span = tracer().startSpan(rpcSpanName(method), { kind: SpanKind.SERVER, attributes: rpcAttributes(method) }, parent);
  return traced(span, parent, method, "server");
}

/** A client span for an outbound call, child of the active context; its trace context is written into `metadata`. */
export function startClientCall(method: DescMethod, metadata: grpc.Metadata): TracedCall {
  const parent = context.active();
  const span = tracer().startSpan(rpcSpanName(method), { kind: SpanKind.CLIENT, attributes: rpcAttributes(method) }, parent);
  const call = traced(span, parent, method, "client");
  propagation.inject(call.context, metadata, { set: (carrier, key, value) => carrier.set(key, value) });
  return call;
}

/** The gRPC status code of a failure as grpc-js reports it (a ServiceError), else UNKNOWN. */
export function statusCodeOf(error: unknown): number {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "number" ? code : grpc.status.UNKNOWN;
}
