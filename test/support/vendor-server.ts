import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the vendor server received, exactly as it arrived. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A stand-in model vendor on 127.0.0.1 speaking the shapes of the Anthropic and OpenAI APIs. */
export interface VendorServer {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** The exact bytes of the server-sent events it streams for `stream: true` requests. */
  readonly streamed: Buffer;
  close(): Promise<void>;
}

const EVENTS = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","role":"assistant"}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Fixed "}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the build."}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
];

/** Starts the vendor server; it records every request and answers in the vendor's format. */
export async function startVendorServer(): Promise<VendorServer> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = request.url ?? "/";
      received.push({ method: request.method ?? "", path, headers: request.headers, body });
      const parsed = body.byteLength > 0 ? (JSON.parse(body.toString("utf8")) as { stream?: boolean }) : {};
      if (parsed.stream === true) {
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        // Events in separate writes with pauses, so a proxy that buffered would be seen.
        EVENTS.forEach((event, index) => setTimeout(() => (index === EVENTS.length - 1 ? response.end(event) : response.write(event)), index * 30));
        return;
      }
      response.writeHead(200, { "content-type": "application/json", "x-vendor": "test" });
      if (path.startsWith("/v1/messages/count_tokens")) response.end(JSON.stringify({ input_tokens: 42 }));
      else if (path.startsWith("/v1/models")) response.end(JSON.stringify({ data: [{ id: "model-a" }] }));
      else response.end(JSON.stringify({ id: "resp_1", echoed_bytes: body.byteLength }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    received,
    streamed: Buffer.from(EVENTS.join("")),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
