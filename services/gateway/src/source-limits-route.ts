import type { IncomingMessage, ServerResponse } from "node:http";
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { AppError, isAppError } from "@loupe/errors";
import { SourceLimitSchema } from "@loupe/proto";
import type { HttpRoute } from "@loupe/runtime";
import { requireSource } from "./rules-handlers.js";
import { toSourceLimit, type SourceRules } from "@loupe/rules";

const ROUTE = /^\/api\/teams\/([^/]+)\/source-limits\/?$/;
const MAX_BODY_BYTES = 1024 * 1024;

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_BODY_BYTES) throw new AppError("invalid_argument", "body larger than 1 MiB");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    // The parser's position means nothing to a REST caller.
    throw new AppError("invalid_argument", "body is not valid JSON");
  }
}

// The app: ?source=…, else the x-loupe-source header (x-proxium-source accepted too).
function sourceOf(request: IncomingMessage, url: URL): string {
  const header = request.headers["x-loupe-source"] ?? request.headers["x-proxium-source"];
  return requireSource(url.searchParams.get("source") ?? (Array.isArray(header) ? (header[0] ?? "") : (header ?? "")));
}

/**
 * `GET` and `PUT /api/teams/{team}/source-limits?source=APP`: a source's
 * rule in the proto JSON mapping (snake_case). PUT is a partial update: fields
 * left out keep their stored value. Another team answers 404.
 */
export function createSourceLimitsRoute(rules: SourceRules, tenant: string): HttpRoute {
  return async (request, response) => {
    const url = new URL(request.url ?? "/", "http://loupe.invalid");
    const match = ROUTE.exec(url.pathname);
    if (!match) return false;
    if (request.method !== "GET" && request.method !== "PUT") {
      send(response, 405, { error: "use GET or PUT" });
      return true;
    }
    if (decodeURIComponent(match[1] ?? "") !== tenant) {
      send(response, 404, { error: "not found" });
      return true;
    }
    try {
      const source = sourceOf(request, url);
      const rule = request.method === "GET" ? await rules.get(tenant, source) : await rules.update(tenant, source, parsePatch(await readJson(request)));
      send(response, 200, { source, limit: toJson(SourceLimitSchema, create(SourceLimitSchema, toSourceLimit(rule)), { alwaysEmitImplicit: true }) });
    } catch (error) {
      if (!isAppError(error)) throw error;
      send(response, error.code === "invalid_argument" ? 400 : error.code === "aborted" ? 409 : 503, { error: error.message });
    }
    return true;
  };
}

function parsePatch(body: unknown): ReturnType<typeof fromJson<typeof SourceLimitSchema>> {
  try {
    return fromJson(SourceLimitSchema, body as never);
  } catch (error) {
    throw new AppError("invalid_argument", `not a source limit: ${error instanceof Error ? error.message : String(error)}`);
  }
}
