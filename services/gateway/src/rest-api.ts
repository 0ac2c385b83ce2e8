import type { IncomingMessage, ServerResponse } from "node:http";
import { create } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { DeleteResultsRequestSchema, type DeleteResultsRequest, type DeleteResultsResponse } from "@loupe/proto";
import { httpStatusOf, sendHttpError, type HttpRoute } from "@loupe/runtime";
import { requireAdmin, type Authenticator } from "./auth/authenticator.js";
import { httpPrincipal } from "./auth/http-principal.js";

/** What the REST API needs. */
export interface RestApiDeps {
  /** Who is calling: the token's tenant; a path naming another team answers 404, never revealing that it exists. */
  auth: Authenticator;
  /** The DeleteResults handler (validation included) for a tenant. */
  deleteResults: (request: DeleteResultsRequest, tenant: string, signal: AbortSignal) => Promise<DeleteResultsResponse>;
}

const ROUTE = /^\/api\/teams\/([^/]+)(?:\/(results|sessions)\/([^/]+))?\/?$/;

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Malformed percent-encoding: no id could be named by it.
    return undefined;
  }
}

function requestFor(kind: string | undefined, id: string): DeleteResultsRequest {
  if (kind === "results") return create(DeleteResultsRequestSchema, { target: { case: "resultId", value: id } });
  if (kind === "sessions") return create(DeleteResultsRequestSchema, { target: { case: "sessionId", value: id } });
  return create(DeleteResultsRequestSchema, { target: { case: "tenant", value: true } });
}

/**
 * The REST routes: `DELETE /api/teams/{team}` (every result of the team), `DELETE
 * /api/teams/{team}/sessions/{sessionId}` and `DELETE /api/teams/{team}/results/{resultId}`, answering
 * `{ "results_deleted": n, "blobs_deleted": m }`. Path segments are percent-decoded. Another team → 404;
 * a malformed id → 400 (the gRPC validation); other failures map from the error code (unknown → 500, with a
 * generic message).
 */
export function createRestApi(deps: RestApiDeps): HttpRoute {
  return async (request: IncomingMessage, response: ServerResponse) => {
    const match = ROUTE.exec((request.url ?? "/").split("?")[0] ?? "/");
    if (!match || request.method !== "DELETE") return false;
    const team = decode(match[1] ?? "");
    const id = decode(match[3] ?? "");
    const controller = new AbortController();
    response.once("close", () => controller.abort());
    try {
      const principal = await httpPrincipal(deps.auth, request);
      if (team !== principal.tenant) throw new AppError("not_found", "no such team");
      if (id === undefined) throw new AppError("invalid_argument", "malformed id in path");
      const target = requestFor(match[2], id);
      if (target.target.case === "tenant") requireAdmin(principal, "deleting a whole team");
      const answer = await deps.deleteResults(target, principal.tenant, controller.signal);
      send(response, 200, { results_deleted: answer.resultsDeleted, blobs_deleted: answer.blobsDeleted });
    } catch (error) {
      // Anything else is the server's own failure: the HTTP server logs it and answers 500.
      if (httpStatusOf(error) === 500) throw error;
      sendHttpError(response, error);
    }
    return true;
  };
}
