import { validateSessionId, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { ServiceHandlers } from "@loupe/grpc";
import type { ArchiveService } from "@loupe/proto";
import type { LineIndexCache } from "./line-index-cache.js";
import { defaultPatternMatcher } from "./pattern-worker.js";
import { deleteResults, deleteTargetFrom } from "./delete-results.js";
import { putResult } from "./put-result.js";
import { readRange } from "./read-range.js";
import { lineIndexOf } from "./line-index.js";
import { loadRecord, loadResult, toResultRecord, type LoadedResult } from "./result-record.js";
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
  /** Largest content kept in its record on a store without putAll (default INLINE_CONTENT_BYTES; see PutContext). */
  inlineMaxBytes?: number;
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

/** The line index of a loaded result: built from an inline one's content, else its blob's (cached). */
function indexOf(deps: ArchiveHandlerDeps, tenant: string, { record, content }: LoadedResult, signal: AbortSignal | undefined) {
  return content === undefined ? deps.indexCache.get(deps.store, tenant, shaOf(record.revision), signal) : Promise.resolve(lineIndexOf(content));
}

/** The ArchiveService handlers over a store. */
export function createArchiveHandlers(deps: ArchiveHandlerDeps): ServiceHandlers<typeof ArchiveService> {
  const { store } = deps;
  return {
    async put(requests, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      const { record, deduplicated } = await putResult(requests, {
        store,
        tenant,
        nowMs: deps.now(),
        retentionMs: deps.retentionMsFor(tenant),
        maxResultBytes: deps.maxResultBytes,
        ...(deps.inlineMaxBytes === undefined ? {} : { inlineMaxBytes: deps.inlineMaxBytes }),
        signal: context.signal,
        ...(context.onAccepted ? { onAccepted: context.onAccepted } : {}),
      });
      return { record: toResultRecord(record), deduplicated };
    },
    async read(request, context) {
      const tenant = tenantFromMetadata(context.metadata, deps.internalToken);
      const loaded = await loadResult(store, tenant, requireResultId(request.resultId), deps.now(), context.signal);
      const { record, content } = loaded;
      const index = await indexOf(deps, tenant, loaded, context.signal);
      const served = await readRange(store, tenant, shaOf(record.revision), index, request, context.signal, content);
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
      const loaded = await loadResult(store, tenant, requireResultId(request.resultId), deps.now(), context.signal);
      const { record, content } = loaded;
      const index = await indexOf(deps, tenant, loaded, context.signal);
      const found = await searchResult(store, tenant, shaOf(record.revision), index, request, {
        matcher: defaultPatternMatcher(),
        signal: context.signal,
        content,
      });
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
