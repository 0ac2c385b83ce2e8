import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import {
  SpanStatusCode,
  countMetric,
  injectTraceHeaders,
  recordMetric,
  recordSpanEvent,
  startTelemetry,
  withExtractedContext,
  withSpan,
} from "@loupe/telemetry";
import type { Telemetry } from "@loupe/telemetry";
import { createLogger } from "@loupe/runtime";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@loupe/telemetry/testing";
import type { ReadableSpan } from "@loupe/telemetry/testing";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe("@loupe/telemetry", () => {
  const exporter = new InMemorySpanExporter();
  let telemetry: Telemetry;
  before(() => {
    telemetry = startTelemetry({ serviceName: "loupe-telemetry-test", spanProcessors: [new SimpleSpanProcessor(exporter)] });
  });
  afterEach(() => exporter.reset());
  after(() => telemetry.shutdown());

  const finished = (name: string): ReadableSpan => {
    const span = exporter.getFinishedSpans().find((candidate) => candidate.name === name);
    assert.ok(span, `no finished span named ${name}`);
    return span;
  };

  it("withSpan records a finished span with its attributes and returns fn's value", async () => {
    const value = await withSpan("project", { "loupe.source": "app", "loupe.budget_tokens": 2000, "loupe.archived": true }, async () => 42);
    assert.equal(value, 42);
    const span = finished("project");
    assert.deepEqual(span.attributes, { "loupe.source": "app", "loupe.budget_tokens": 2000, "loupe.archived": true });
    assert.equal(span.status.code, SpanStatusCode.UNSET);
    assert.equal(span.resource.attributes["service.name"], "loupe-telemetry-test");
  });

  it("withSpan sets ERROR status, records the exception and rethrows", async () => {
    const failure = Object.assign(new Error("archive unreachable [addr=x]"), { name: "AppError", code: "unavailable" });
    await assert.rejects(
      withSpan("recover", { "loupe.result_id": "r1" }, async () => Promise.reject(failure)),
      (error) => error === failure,
    );
    const span = finished("recover");
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.status.message, "archive unreachable [addr=x]");
    assert.equal(span.attributes["error.type"], "unavailable");
    assert.equal(span.attributes["loupe.result_id"], "r1");
    const exception = span.events.find((event) => event.name === "exception");
    assert.equal(exception?.attributes?.["exception.message"], "archive unreachable [addr=x]");
  });

  it("JSON log lines carry the active span's trace_id and span_id, and none outside a span", async () => {
    const lines: string[] = [];
    const logger = createLogger({ service: "test", write: (line) => lines.push(line) });
    await withSpan("logging", {}, async () => logger.info("inside", { resultId: "r_1" }));
    logger.info("outside");
    const span = finished("logging");
    const [inside, outside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(inside?.["trace_id"], span.spanContext().traceId);
    assert.equal(inside?.["span_id"], span.spanContext().spanId);
    assert.equal(inside?.["resultId"], "r_1");
    assert.equal(outside?.["trace_id"], undefined);
    assert.equal(outside?.["span_id"], undefined);
  });

  it("nests spans and records events on the active span", async () => {
    await withSpan("outer", {}, async () => {
      recordSpanEvent("note.updated", { "loupe.turns": 3 });
      await withSpan("inner", {}, async () => undefined);
    });
    recordSpanEvent("ignored outside any span");
    const outer = finished("outer");
    const inner = finished("inner");
    assert.equal(inner.spanContext().traceId, outer.spanContext().traceId);
    assert.equal(inner.parentSpanContext?.spanId, outer.spanContext().spanId);
    assert.deepEqual(
      outer.events.map((event) => [event.name, event.attributes]),
      [["note.updated", { "loupe.turns": 3 }]],
    );
  });

  it("injectTraceHeaders → withExtractedContext makes the receiver's span join the sender's trace", async () => {
    const given = { "Nats-Msg-Id": "m1" };
    const headers = await withSpan("publish", {}, async () => injectTraceHeaders(given));
    assert.deepEqual(given, { "Nats-Msg-Id": "m1" }, "the input is not modified");
    assert.equal(headers["Nats-Msg-Id"], "m1");
    assert.match(headers.traceparent ?? "", TRACEPARENT);
    // Crossing the bus: only the headers travel, as strings.
    const received = JSON.parse(JSON.stringify(headers)) as Record<string, string>;
    await withExtractedContext(received, () => withSpan("consume", {}, async () => undefined));

    const publish = finished("publish");
    const consume = finished("consume");
    assert.equal(consume.spanContext().traceId, publish.spanContext().traceId);
    assert.equal(consume.parentSpanContext?.spanId, publish.spanContext().spanId);
    assert.equal(headers.traceparent, `00-${publish.spanContext().traceId}-${publish.spanContext().spanId}-01`);
  });

  it("injects nothing without an active span, and headers without context start a new trace", async () => {
    assert.deepEqual(injectTraceHeaders(), {});
    await withExtractedContext({ unrelated: "x" }, () => withSpan("orphan", {}, async () => undefined));
    assert.equal(finished("orphan").parentSpanContext, undefined);
  });
});

describe("startTelemetry: configured by the OTEL_* variables alone", () => {
  it("with no exporter set registers no tracer (spans are no-ops) and still keeps metrics for /metrics", async () => {
    const telemetry = startTelemetry({ serviceName: "loupe-metrics-test", env: {} });
    try {
      assert.equal(telemetry.tracing, false);
      const traceparent = await withSpan("not recorded", {}, async () => injectTraceHeaders().traceparent);
      assert.equal(traceparent, undefined, "no trace context without a tracer");
      countMetric("loupe.projections", { kind: "command", source: "app", archived: true });
      countMetric("loupe.projections", { kind: "command", source: "app", archived: true });
      recordMetric("loupe.archive.put.duration", 12, { operation: "put", outcome: "ok" });
      const text = await telemetry.metricsText();
      assert.match(text, /^loupe_projections_total\{[^}]*kind="command"[^}]*\} 2\b/m);
      assert.match(text, /^loupe_archive_put_duration\w*_count\{[^}]*operation="put"[^}]*\} 1\b/m);
      assert.match(text, /# HELP loupe_projections_total Project answers/);
      // The runtime's metrics, under their OpenTelemetry names.
      assert.match(text, /^process_memory_usage(_bytes)?\{[^}]*\} [1-9]\d*/m);
      assert.match(text, /^v8js_memory_heap_used(_bytes)?\{/m);
      assert.match(text, /^process_uptime(_seconds)?\{/m);
    } finally {
      await telemetry.shutdown();
    }
  });

  it("OTEL_SDK_DISABLED turns everything off, and an unknown exporter or protocol is refused by name", async () => {
    const off = startTelemetry({ serviceName: "off", env: { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" } });
    assert.equal(off.tracing, false);
    assert.equal(await off.metricsText(), "");
    await off.shutdown();
    assert.throws(() => startTelemetry({ serviceName: "x", env: { OTEL_TRACES_EXPORTER: "zipkin" } }), /OTEL_TRACES_EXPORTER .*zipkin/);
    assert.throws(
      () => startTelemetry({ serviceName: "x", env: { OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_PROTOCOL: "http/xml" } }),
      /unknown OTLP protocol/,
    );
  });

  it("an endpoint alone turns on OTLP traces; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name the resource", async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = startTelemetry({
      serviceName: "loupe-gateway",
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_SERVICE_NAME: "edge-gateway", OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test" },
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    try {
      assert.equal(telemetry.tracing, true);
      await withSpan("named", {}, async () => undefined);
      const span = exporter.getFinishedSpans().find((candidate) => candidate.name === "named");
      assert.equal(span?.resource.attributes["service.name"], "edge-gateway");
      assert.equal(span?.resource.attributes["deployment.environment"], "test");
    } finally {
      await telemetry.shutdown();
    }
  });
});
