import type { IncomingMessage, ServerResponse } from "node:http";
import { create, fromJson, toJson, type DescMessage, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { AppError, isAppError } from "@loupe/errors";
import { sendHttpError, type HttpRoute } from "@loupe/runtime";

/** One JSON endpoint: a proto request and response, and the handler that serves it. */
export interface JsonEndpoint<I extends DescMessage, O extends DescMessage> {
  input: I;
  output: O;
  /** `headers`: the HTTP request's, for the caller's credentials. */
  handle: (request: MessageShape<I>, signal: AbortSignal, headers: IncomingMessage["headers"]) => Promise<MessageInitShape<O>>;
}

/** Pairs schemas with a handler (keeps each endpoint's types together). */
export function jsonEndpoint<I extends DescMessage, O extends DescMessage>(
  input: I,
  output: O,
  handle: JsonEndpoint<I, O>["handle"],
): JsonEndpoint<DescMessage, DescMessage> {
  return { input, output, handle } as unknown as JsonEndpoint<DescMessage, DescMessage>;
}

const MAX_BODY_BYTES = 80 * 1024 * 1024;

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_BODY_BYTES)
      throw new AppError("resource_exhausted", `body larger than the limit [limit_bytes=${String(MAX_BODY_BYTES)}]`, { reason: "too_large" });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    // The parser's position means nothing to the caller.
    throw new AppError("invalid_argument", "body is not valid JSON");
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/**
 * The HTTP/JSON API: `POST /v1/<name>` with a request in the proto JSON
 * mapping (snake_case or lowerCamel field names) answers the response in the
 * same mapping, so any language can call Loupe with plain HTTP. Errors answer
 * `{ "code": "not_found", "message": "…" }` with the matching HTTP status.
 */
export function createJsonApi(endpoints: Readonly<Record<string, JsonEndpoint<DescMessage, DescMessage>>>): HttpRoute {
  return async (request, response) => {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const endpoint = endpoints[path];
    if (endpoint === undefined) return false;
    if (request.method !== "POST") {
      sendHttpError(response, new AppError("invalid_argument", "use POST"));
      return true;
    }
    const controller = new AbortController();
    // A request's own "close" fires once its body is read; only the response closing early means the caller left.
    response.on("close", () => {
      if (!response.writableFinished) controller.abort();
    });
    try {
      let input: MessageShape<DescMessage>;
      try {
        input = fromJson(endpoint.input, (await readJson(request)) as never);
      } catch (error) {
        if (isAppError(error)) throw error;
        throw new AppError("invalid_argument", `not a ${endpoint.input.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      const output = await endpoint.handle(input, controller.signal, request.headers);
      send(response, 200, toJson(endpoint.output, create(endpoint.output, output as never)));
    } catch (error) {
      // Anything else is the server's own failure: the HTTP server logs it and answers 500.
      if (!isAppError(error)) throw error;
      sendHttpError(response, error);
    }
    return true;
  };
}
