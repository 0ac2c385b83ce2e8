import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { after, afterEach, before, describe, it } from "node:test";
import { SpanStatusCode, injectTraceHeaders, recordSpanEvent, startTelemetry, withExtractedContext, withSpan } from "@loupe/telemetry";
import type { Telemetry } from "@loupe/telemetry";
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
    await assert.rejects(withSpan("recover", { "loupe.result_id": "r1" }, async () => Promise.reject(failure)), (error) => error === failure);
    const span = finished("recover");
    assert.equal(span.status.code, SpanStatusCode.ERROR);
    assert.equal(span.status.message, "archive unreachable [addr=x]");
    assert.equal(span.attributes["error.type"], "unavailable");
    assert.equal(span.attributes["loupe.result_id"], "r1");
    const exception = span.events.find((event) => event.name === "exception");
    assert.equal(exception?.attributes?.["exception.message"], "archive unreachable [addr=x]");
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

describe("@loupe/telemetry/register", () => {
  it("lets the ioredis instrumentation trace an ES module import", async () => {
    const key = `loupe-test:telemetry:${randomUUID()}`;
    const script = `
      import { startTelemetry, withSpan } from "@loupe/telemetry";
      import { InMemorySpanExporter, SimpleSpanProcessor } from "@loupe/telemetry/testing";
      const exporter = new InMemorySpanExporter();
      const telemetry = startTelemetry({ serviceName: "register-test", spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const { Redis } = await import("ioredis");
      const redis = new Redis("redis://127.0.0.1:6379");
      await withSpan("parent", {}, async () => { await redis.set(${JSON.stringify(key)}, "v"); await redis.del(${JSON.stringify(key)}); });
      await redis.quit();
      // Read before shutdown: shutting down an InMemorySpanExporter empties it.
      console.log(JSON.stringify(exporter.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes }))));
      await telemetry.shutdown();`;
    const cwd = fileURLToPath(new URL("..", import.meta.url));
    const args = ["--conditions=source", "--import", "tsx", "--import", "@loupe/telemetry/register", "--input-type=module", "-e", script];
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const exitCode = await new Promise((resolve) => child.on("exit", resolve));
    assert.equal(exitCode, 0);
    const spans = JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]") as { name: string; attributes: Record<string, unknown> }[];
    const names = spans.map((span) => span.name);
    assert.ok(names.includes("parent"), names.join(","));
    assert.ok(names.includes("set") && names.includes("del"), `ioredis spans missing: ${names.join(",")}`);
    assert.equal(spans.find((span) => span.name === "set")?.attributes["db.system.name"], "redis");
  });
});
