import type { IncomingMessage, ServerResponse } from "node:http";
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { AppError, isAppError } from "@loupe/errors";
import { SourceLimitSchema } from "@loupe/proto";
import { sendHttpError, type HttpRoute } from "@loupe/runtime";
import { requireSource, ruleToolsCheck } from "./rules-handlers.js";
import { toSourceLimit, type SourceRules } from "@loupe/rules";
import type { StateStore } from "@loupe/state-store";
import { requireAdmin, requireSourceScope, type Authenticator } from "./auth/authenticator.js";
import { httpPrincipal } from "./auth/http-principal.js";

function teamOf(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Malformed percent-encoding names no team.
    return undefined;
  }
}

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

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

// The app: "source" in the body (PUT), ?source=…, else the x-loupe-source header (x-proxium-source accepted too).
function sourceOf(request: IncomingMessage, url: URL, body: unknown): string {
  const header = request.headers["x-loupe-source"] ?? request.headers["x-proxium-source"];
  const named = url.searchParams.get("source") ?? (Array.isArray(header) ? (header[0] ?? "") : (header ?? ""));
  const inBody = isRecord(body) ? body["source"] : undefined;
  if (inBody === undefined) return requireSource(named);
  if (typeof inBody !== "string") throw new AppError("invalid_argument", '"source" must be a string');
  if (named !== "" && named !== inBody)
    throw new AppError("invalid_argument", `two different sources [body=${inBody.slice(0, 80)}, query or header=${named.slice(0, 80)}]`);
  return requireSource(inBody);
}

// The body less "source" (which names the app, not a rule field), with keep_tools as a plain array accepted.
function withoutSource(body: unknown): unknown {
  if (!isRecord(body)) return body;
  const { source: _source, ...rest } = body;
  const tools = rest["keep_tools"] ?? rest["keepTools"];
  if (Array.isArray(tools)) {
    delete rest["keepTools"];
    rest["keep_tools"] = { values: tools };
  }
  return rest;
}

// keep_tools as a plain JSON array, as it is written.
function plainKeepTools(limit: unknown): unknown {
  if (!isRecord(limit)) return limit;
  const tools = limit["keep_tools"];
  return isRecord(tools) ? { ...limit, keep_tools: Array.isArray(tools["values"]) ? tools["values"] : [] } : limit;
}

/**
 * `GET` and `PUT /api/teams/{team}/source-limits?source=APP`: a source's
 * rule in the proto JSON mapping with snake_case names, `keep_tools` a plain
 * array. PUT is a partial update: fields left out keep their stored value; the
 * app may also be named by `"source"` in its body, and `keep_tools` may be a
 * plain array or `{"values": […]}`. Another team answers 404. Beside the rule,
 * `recent_tools` (the tool names of the app's recent vendor requests),
 * `keep_tools_matched` and a `warning` when the cut is on but keep_tools names
 * none of them, so a rule that can cut nothing is seen at once.
 */
export function createSourceLimitsRoute(rules: SourceRules, auth: Authenticator, state: StateStore): HttpRoute {
  return async (request, response) => {
    const url = new URL(request.url ?? "/", "http://loupe.invalid");
    const match = ROUTE.exec(url.pathname);
    if (!match) return false;
    if (request.method !== "GET" && request.method !== "PUT") {
      sendHttpError(response, new AppError("invalid_argument", "use GET or PUT"));
      return true;
    }
    try {
      const principal = await httpPrincipal(auth, request);
      const tenant = principal.tenant;
      if (teamOf(match[1] ?? "") !== tenant) throw new AppError("not_found", "no such team");
      if (request.method === "PUT") requireAdmin(principal, "changing an app's rule");
      const body = request.method === "PUT" ? await readJson(request) : undefined;
      const source = sourceOf(request, url, body);
      requireSourceScope(principal, source);
      const rule = request.method === "GET" ? await rules.get(tenant, source) : await rules.update(tenant, source, parsePatch(withoutSource(body)));
      const check = await ruleToolsCheck(state, tenant, source, rule);
      send(response, 200, {
        source,
        limit: plainKeepTools(toJson(SourceLimitSchema, create(SourceLimitSchema, toSourceLimit(rule)), { alwaysEmitImplicit: true, useProtoFieldName: true })),
        recent_tools: check.recentTools,
        ...(check.keepToolsMatched === undefined ? {} : { keep_tools_matched: check.keepToolsMatched }),
        ...(check.warning === "" ? {} : { warning: check.warning }),
      });
    } catch (error) {
      if (!isAppError(error)) throw error;
      sendHttpError(response, error);
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
