import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import type { ArchiveClient } from "@loupe/archive-client";
import type { ReadResponse, RecoverRequest, RecoverResponseSchema, ResultRecord } from "@loupe/proto";
import { readWhole } from "./recover-json.js";

type RecoverResponseInit = MessageInitShape<typeof RecoverResponseSchema>;

/** True when the request names only the result (no range, pointer, view, pattern or cursor): how a medium is read. */
function namesOnlyTheResult(request: RecoverRequest): boolean {
  const ranged = request.startLine !== undefined || request.endLine !== undefined || request.startByte !== undefined || request.endByte !== undefined;
  const structured = request.jsonPointer !== undefined || request.itemStart !== undefined || request.itemEnd !== undefined || request.view !== "";
  return !ranged && !structured && request.pattern === "" && request.cursor === "";
}

/**
 * Answers a medium saved as a result of its own (an image, audio, a file) whole, as one media part
 * with its bytes and media type; `first` is the read that found its record.
 * @throws AppError `invalid_argument` when the request names a range, pointer, view, pattern or cursor
 */
export async function recoverMedium(
  request: RecoverRequest,
  first: ReadResponse,
  record: ResultRecord,
  tenant: string,
  archive: ArchiveClient,
  signal?: AbortSignal,
): Promise<RecoverResponseInit> {
  if (!namesOnlyTheResult(request)) {
    throw new AppError("invalid_argument", `a medium is read whole: give only its result_id [result_id=${record.resultId}, mime_type=${record.mimeType}]`);
  }
  // The read that found the record usually holds the whole medium already: read again only when it did not.
  const whole = first.startByte === 0 && first.endByte === Number(record.sizeBytes);
  const bytes = whole ? first.data : (await readWhole(archive, tenant, record.resultId, signal)).bytes;
  return {
    parts: [{ content: { case: "media", value: { mimeType: record.mimeType, data: bytes, name: record.path, resultId: record.resultId } } }],
    revision: record.revision,
    resultId: record.resultId,
    totalLines: 0,
    totalBytes: Number(record.sizeBytes),
    startByte: 0,
    endByte: bytes.byteLength,
  };
}
