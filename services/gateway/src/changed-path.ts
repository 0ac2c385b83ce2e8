import type { Logger } from "@loupe/runtime";
import type { PathRevision, PathRevisions } from "./path-revisions.js";

/** What Project learned about a file read's path before answering. */
export interface PathCheck {
  /** The notice to show when the file changed since the session's last read; "" otherwise. */
  notice: string;
  /** Records this read as the latest of its part of the file (call once the answer is decided); never throws. */
  record(value: Omit<PathRevision, "scope">): Promise<void>;
}

const NONE: PathCheck = { notice: "", record: () => Promise.resolve() };

/**
 * Compares a file read with the session's last read of the same path and part (`scope`). The
 * state store is not on the answer's critical path for correctness: when it
 * fails, the read is answered without the notice and the failure is logged.
 */
export async function checkPath(
  revisions: PathRevisions,
  logger: Logger,
  tenant: string,
  sessionId: string,
  path: string | undefined,
  revision: string,
  scope = "",
): Promise<PathCheck> {
  if (path === undefined || path === "") return NONE;
  let previous: PathRevision | undefined;
  try {
    previous = await revisions.latest(tenant, sessionId, path, scope);
  } catch (error) {
    logger.warn("path revision lookup failed", { error });
    return NONE;
  }
  // Only reads of the same part of the file can show a change (two ranges of one file differ by nature): the
  // lookup is by scope; an entry stored before scopes were keyed may hold another part.
  const changed = previous !== undefined && previous.revision !== revision && (previous.scope ?? "") === scope;
  const earlier = previous?.resultId ? `; your earlier read is ${previous.resultId}` : "";
  return {
    notice: changed ? `[loupe] ${path} changed since your last read${earlier}\n` : "",
    record: (value) =>
      revisions.record(tenant, sessionId, path, { ...value, scope }).catch((error: unknown) => {
        logger.warn("path revision record failed", { error });
      }),
  };
}
