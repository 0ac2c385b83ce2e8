import type { MessageInitShape } from "@bufbuild/protobuf";
import { validateSessionId } from "@loupe/archive-store/content";
import { AppError } from "@loupe/errors";
import type { RequestHandoverRequest, RequestHandoverResponseSchema } from "@loupe/proto";
import type { ConversationDeps } from "./conversation-deps.js";

/** Longest reason a handover request may give, in characters. */
export const MAX_HANDOVER_REASON_CHARS = 500;

/** The compaction reason AppendTurns reports for a requested handover. */
export const requestedReason = (reason: string): string => `requested: ${reason}`;

/**
 * RequestHandover: a model asks for a handover at a natural point (an investigation finished, a set
 * of changes verified). The session is marked, so AppendTurns reports `compaction_due` with
 * `compaction_reason` "requested: <reason>" whatever the remaining capacity, until the next Compact.
 * @throws AppError `invalid_argument` (bad session id, reason too long), `not_found` (no turns yet)
 */
export async function requestHandover(
  deps: ConversationDeps,
  tenant: string,
  request: RequestHandoverRequest,
): Promise<MessageInitShape<typeof RequestHandoverResponseSchema>> {
  validateSessionId(request.sessionId);
  const reason = request.reason.trim() === "" ? "the model asked for a handover" : request.reason.trim().replace(/\s+/g, " ");
  if (reason.length > MAX_HANDOVER_REASON_CHARS) throw new AppError("invalid_argument", `reason too long [max_chars=${String(MAX_HANDOVER_REASON_CHARS)}]`);
  const meta = await deps.sessions.getMeta(tenant, request.sessionId);
  if (meta === undefined) throw new AppError("not_found", `no turns for this session [session=${request.sessionId.slice(0, 80)}]`);
  await deps.sessions.requestHandover(tenant, request.sessionId, reason);
  return { compactionReason: requestedReason(reason) };
}
