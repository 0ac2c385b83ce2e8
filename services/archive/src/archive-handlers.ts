import { validateSessionId, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { ServiceHandlers } from "@loupe/grpc";
import type { ArchiveService } from "@loupe/proto";
import type { LineIndexCache } from "./line-index-cache.js";
import { defaultPatternMatcher } from "./pattern-worker.js";
import { deleteResults, deleteTargetFrom } from "./delete-results.js";
import { putResult } from "./put-result.js";
import { readRange } from "./read-range.js";
import { loadRecord, toResultRecord } from "./result-record.js";
import { searchResult } from "./search-result.js";
import { tenantFromMetadata } from "./tenant.js";
import { appendTurns } from "./turns/append-turns.js";
import { readTurns } from "./turns/read-turns.js";
import { searchTurns } from "./turns/search-turns.js";
import { validateStoredTurns } from "./turns/validate-turns.js";

/** What the archive's handlers need. */
export interface ArchiveHandlerDeps {
  store: ArchiveStore;
  indexCache: LineIndexCache;
  maxResultBytes: number;
  /** How long a tenant's results are kept (ms). */
  retentionMsFor: (tenant: string) => number;
  /** Clock (ms since the epoch). */
  now: () => number;
  /** LOUPE_INTERNAL_TOKEN: when set, callers must present it. */
  internalToken?: string | undefined;
}

function requireResultId(resultId: string): string {
  if (resultId === "") throw new AppError("invalid_argument", "result_id is required");
  return resultId;
}

const shaOf = (revision: string): string => revision.slice("sha256:".length);

/** The ArchiveService handlers over a store. */
export function createArchiveHandlers(deps: ArchiveHandlerDeps): ServiceHandlers<typeof ArchiveService> {
  const { store, indexCache } = deps;
  return {
    async put(requests, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      const { record, deduplicated } = await putResult(requests, {
        store,
        tenant,
        nowMs: deps.now(),
        retentionMs: deps.retentionMsFor(tenant),
        maxResultBytes: deps.maxResultBytes,
        signal: context.signal,
        ...(context.onAccepted ? { onAccepted: context.onAccepted } : {}),
      });
      return { record: toResultRecord(record), deduplicated };
    },
    async read(request, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      const record = await loadRecord(store, tenant, requireResultId(request.resultId), deps.now(), context.signal);
      const index = await indexCache.get(store, tenant, shaOf(record.revision), context.signal);
      const served = await readRange(store, tenant, shaOf(record.revision), index, request, context.signal);
      return { ...served, record: toResultRecord(record) };
    },
    async delete(request, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      const outcome = await deleteResults(store, tenant, deleteTargetFrom(request), deps.now(), context.signal);
      return { resultsDeleted: outcome.resultsDeleted, blobsDeleted: outcome.blobsDeleted };
    },
    async stat(request, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      const record = await loadRecord(store, tenant, requireResultId(request.resultId), deps.now(), context.signal);
      return { record: toResultRecord(record) };
    },
    async search(request, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      const record = await loadRecord(store, tenant, requireResultId(request.resultId), deps.now(), context.signal);
      const index = await indexCache.get(store, tenant, shaOf(record.revision), context.signal);
      const found = await searchResult(store, tenant, shaOf(record.revision), index, request, { matcher: defaultPatternMatcher(), signal: context.signal });
      return { ...found, record: toResultRecord(record) };
    },
    async appendTurns(request, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      validateSessionId(request.sessionId);
      validateStoredTurns(request.turns);
      return appendTurns(store, {
        tenant,
        sessionId: request.sessionId,
        turns: request.turns,
        systemPrompt: request.systemPrompt,
        toolsJson: request.toolsJson,
        signal: context.signal,
      });
    },
    async readTurns(request, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      validateSessionId(request.sessionId);
      return readTurns(store, tenant, request, context.signal);
    },
    async searchTurns(request, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      validateSessionId(request.sessionId);
      return searchTurns(store, tenant, request, context.signal);
    },
  };
}
