import type { MessageInitShape } from "@bufbuild/protobuf";
import type { RecoverResponseSchema, ResultRecord } from "@loupe/proto";
import type { PathRevisions } from "./path-revisions.js";

/**
 * Says when a newer revision of the same path was read in the session since
 * this snapshot (invariant 7: fragments of two versions are never joined
 * silently). Only a later read of the same part of the file (`read_scope`)
 * can show a change — two ranges of one file differ by nature — as for the
 * changed-file notice of Project. A state store that cannot answer leaves the
 * answer unmarked.
 */
export async function markStale(
  response: MessageInitShape<typeof RecoverResponseSchema>,
  record: ResultRecord,
  tenant: string,
  revisions: PathRevisions,
): Promise<void> {
  if (record.path === "") return;
  const latest = await revisions.latest(tenant, record.sessionId, record.path, record.readScope).catch(() => undefined);
  if (latest === undefined || latest.revision === record.revision) return;
  // An entry stored before scopes were keyed may hold another part of the file.
  if ((latest.scope ?? "") !== record.readScope) return;
  response.stale = true;
  response.newerResultId = latest.resultId;
}
