import type { IncomingMessage, ServerResponse } from "node:http";
import { create } from "@bufbuild/protobuf";
import { isAppError, type ErrorCode } from "@loupe/errors";
import { DeleteResultsRequestSchema, type DeleteResultsRequest, type DeleteResultsResponse } from "@loupe/proto";
import type { HttpRoute } from "@loupe/runtime";

/** What the REST API needs. */
export interface RestApiDeps {
  /** The caller's tenant; a path naming another team answers 404, never revealing that it exists. */
  tenant: string;
  /** The DeleteResults handler (validation included). */
  deleteResults: (request: DeleteResultsRequest, signal: AbortSignal) => Promise<DeleteResultsResponse>;
}

const ROUTE = /^\/api\/teams\/([^/]+)(?:\/(results|sessions)\/([^/]+))?\/?$/;

const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  invalid_argument: 400,
  not_found: 404,
  failed_precondition: 412,
  permission_denied: 403,
  unauthenticated: 401,
  resource_exhausted: 429,
  unavailable: 503,
  deadline_exceeded: 504,
};

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
    if (team !== deps.tenant) {
      send(response, 404, { error: "not found" });
      return true;
    }
    if (id === undefined) {
      send(response, 400, { error: "malformed id in path" });
      return true;
    }
    const controller = new AbortController();
    response.once("close", () => controller.abort());
    try {
      const answer = await deps.deleteResults(requestFor(match[2], id), controller.signal);
      send(response, 200, { results_deleted: answer.resultsDeleted, blobs_deleted: answer.blobsDeleted });
    } catch (error) {
      const status = isAppError(error) ? (STATUS_BY_CODE[error.code] ?? 500) : 500;
      if (status === 500) throw error;
      send(response, status, { error: isAppError(error) ? error.message : "error" });
    }
    return true;
  };
}
