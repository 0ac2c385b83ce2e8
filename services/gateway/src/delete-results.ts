import type { MessageInitShape } from "@bufbuild/protobuf";
import { checkSessionIdLength } from "@loupe/archive-store/content";
import { AppError } from "@loupe/errors";
import type { DeleteRequestSchema, DeleteResultsRequest, DeleteResultsResponse } from "@loupe/proto";
import type { SessionStore } from "@loupe/session-store";
import type { ArchiveClient } from "@loupe/archive-client";

const RESULT_ID_PATTERN = /^r_[A-Za-z0-9_-]{16,64}$/;

/** The archive target of a DeleteResults request, checked as Project and Recover check ids. */
export type DeleteResultsTarget = MessageInitShape<typeof DeleteRequestSchema>["target"];

/**
 * Checks a DeleteResults target: a well-formed result id, a session id of at most MAX_SESSION_ID_CHARS, or
 * `tenant: true`.
 * @throws AppError `invalid_argument` naming the problem
 */
export function validateDeleteTarget(target: DeleteResultsRequest["target"]): NonNullable<DeleteResultsTarget> {
  switch (target.case) {
    case "resultId":
      if (!RESULT_ID_PATTERN.test(target.value)) throw new AppError("invalid_argument", `malformed result_id [result_id=${target.value.slice(0, 80)}]`);
      return target;
    case "sessionId":
      checkSessionIdLength(target.value);
      return target;
    case "tenant":
      if (!target.value) throw new AppError("invalid_argument", "tenant must be true to delete every result of the tenant");
      return target;
    case undefined:
      throw new AppError("invalid_argument", "a target is required: result_id, session_id or tenant");
  }
}

/**
 * ProjectionService.DeleteResults: deletes the caller's results (one, a session's, or all) in the archive,
 * with the records, index entries and the blobs no remaining result uses; a session's or tenant's turn
 * logs, and with `sessions` their notes and session state.
 * @throws AppError `invalid_argument` for a bad target; the archive's errors otherwise
 */
export async function deleteResults(
  request: DeleteResultsRequest,
  tenant: string,
  archive: ArchiveClient,
  signal?: AbortSignal,
  sessions?: SessionStore,
): Promise<DeleteResultsResponse> {
  const target = validateDeleteTarget(request.target);
  const response = await archive.delete(tenant, { target }, signal);
  // A session's (or the tenant's) turn logs went with the archive delete; its notes and meta go too.
  if (target.case === "sessionId") await sessions?.release(tenant, target.value);
  if (target.case === "tenant") await sessions?.releaseAll(tenant);
  return { $typeName: "loupe.v1.DeleteResultsResponse", resultsDeleted: response.resultsDeleted, blobsDeleted: response.blobsDeleted };
}
