// An OTLP/HTTP JSON receiver inside the test: it stands in for the collector, and keeps every span
// the processes under test export (POST /v1/traces), flattened with its service name.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One received span, its attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  /** End less start, in ms (0 when the exporter sent no times). */
  durationMs: number;
  attributes: Record<string, string | number | boolean>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano?: string | number;
        endTimeUnixNano?: string | number;
        attributes?: KeyValue[];
      }[];
    }[];
  }[];
}

const plain = (value: AnyValue): string | number | boolean =>
  value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.doubleValue ?? value.boolValue ?? "";
const attributesOf = (list: KeyValue[] = []): Record<string, string | number | boolean> =>
  Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

/** A running receiver: its endpoint (for OTEL_EXPORTER_OTLP_ENDPOINT) and the spans so far. */
export interface OtlpReceiver {
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  close(): Promise<void>;
}

/** Starts the receiver on a free loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces" && request.method === "POST") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportRequest;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"] ?? "");
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? "",
                name: span.name,
                kind: span.kind,
                durationMs: Number(BigInt(span.endTimeUnixNano ?? 0) - BigInt(span.startTimeUnixNano ?? 0)) / 1e6,
                attributes: attributesOf(span.attributes),
              });
        }
      }
      // Metrics and logs are accepted and dropped.
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
