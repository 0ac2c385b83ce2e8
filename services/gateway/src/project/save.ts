import { projectResult, type ProjectOptions, type ResultView } from "@loupe/projection";
import type { ProjectRequest } from "@loupe/proto";
import type { Gathered } from "./gather.js";
import type { ProjectDeps } from "./project-deps.js";

/** How the save went: saved under `resultId`, or not, with the view to answer instead (fail-open). */
export interface Saved {
  archived: boolean;
  resultId: string;
  /** Set when the save failed: the fail-open view (invariant 6), projected from the same options. */
  fallback?: (options: ProjectOptions) => ResultView;
}

/**
 * Saves the complete result in the archive, within LOUPE_ARCHIVE_TIMEOUT_MS and the caller's
 * cancellation. When that fails the answer goes fail-open: the input unchanged when it fits the
 * hard cap, else a view within the cap alone with no continuation (nothing was saved). `onAccepted` is
 * told when the archive has the result in hand (PutCallOptions.onAccepted).
 */
export async function save(
  gathered: Gathered,
  request: ProjectRequest,
  tenant: string,
  deps: ProjectDeps,
  signal?: AbortSignal,
  onAccepted?: () => void,
): Promise<Saved> {
  const { content, result } = gathered;
  const started = performance.now();
  try {
    await deps.archive.put(
      tenant,
      {
        resultId: gathered.resultId,
        revision: content.revision,
        sessionId: request.sessionId,
        source: request.source,
        toolName: result.toolName,
        kind: result.kind,
        path: gathered.path ?? "",
        readScope: gathered.scope,
        sizeBytes: BigInt(content.bytes.byteLength),
        ...(content.structuredTail ? { structuredStartByte: content.structuredTail.startByte } : {}),
      },
      content.bytes,
      { timeoutMs: deps.archiveTimeoutMs, ...(signal === undefined ? {} : { signal }), ...(onAccepted === undefined ? {} : { onAccepted }) },
    );
    deps.onArchiveSave?.(performance.now() - started);
    return { archived: true, resultId: gathered.resultId };
  } catch (error) {
    // A failed save took the whole budget as far as the archive's load goes (not so when the caller gave up).
    if (signal?.aborted !== true) deps.onArchiveSave?.(deps.archiveTimeoutMs);
    deps.onArchiveFailure(error);
    if (content.bytes.byteLength <= deps.maxViewBytes) {
      return {
        archived: false,
        resultId: "",
        fallback: () => ({ text: content.text, omissions: [], unchanged: true, kind: gathered.input.declaredKind ?? "generic" }),
      };
    }
    // The hard cap still holds: a view within the cap alone, with no continuation.
    return {
      archived: false,
      resultId: "",
      fallback: (options) => projectResult(gathered.input, { ...options, budgetTokens: deps.maxViewBytes, resultId: "" }),
    };
  }
}
