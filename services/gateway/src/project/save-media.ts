import { revisionOf } from "@loupe/archive-store/content";
import type { Part, ProjectRequest } from "@loupe/proto";
import { resultIdFor } from "../result-id.js";
import type { Gathered } from "./gather.js";
import type { ProjectDeps } from "./project-deps.js";

/**
 * Saves each medium of a result that carries its bytes (an image, audio, a file) as a result of
 * its own, so a runtime that cannot attach it can still name where it is read (Recover with its
 * result id answers it whole). Returns the result id of each saved medium by its index in
 * `media`; a medium whose save failed (logged) gets none — the medium itself still passes
 * through the view untouched, so nothing is lost by it.
 */
export async function saveMedia(
  gathered: Gathered,
  request: ProjectRequest,
  tenant: string,
  deps: ProjectDeps,
  signal?: AbortSignal,
): Promise<Map<number, string>> {
  const saved = new Map<number, string>();
  await Promise.all(
    gathered.content.media.map(async (part: Part, index) => {
      if (part.content.case !== "media" || part.content.value.data.byteLength === 0) return;
      const medium = part.content.value;
      const revision = revisionOf(medium.data);
      const mimeType = medium.mimeType === "" ? "application/octet-stream" : medium.mimeType;
      // The media type is part of the id: the same bytes sent as text are another result.
      const resultId = resultIdFor(deps.resultIdSecret, tenant, request.sessionId, `${revision}\u0000${mimeType}`);
      try {
        const header = {
          resultId,
          revision,
          sessionId: request.sessionId,
          source: request.source,
          toolName: gathered.result.toolName,
          kind: gathered.result.kind,
          path: medium.name,
          mimeType,
          sizeBytes: BigInt(medium.data.byteLength),
        };
        await deps.archive.put(tenant, header, medium.data, { timeoutMs: deps.archiveTimeoutMs, ...(signal === undefined ? {} : { signal }) });
        saved.set(index, resultId);
      } catch (error) {
        deps.logger.warn("medium not saved; it passes through without a result id", { error, mimeType, bytes: medium.data.byteLength });
      }
    }),
  );
  return saved;
}
