import { recordKey } from "@loupe/archive-store";
import type { PutContext } from "./put-result.js";
import { writeResultEntries } from "./result-entries.js";
import { recordOf, saveRecord, type StoredRecord } from "./result-record.js";
import { readSmallContent, type ContentStream } from "./store-content.js";

/**
 * A small content kept in its record's object (see encodeRecordObject), on a store without `putAll`: read
 * whole and verified first (nothing is stored when it fails its checks), then the session and expiry
 * entries (no reference marker: it shares no blob), then the record with the content — acknowledged once
 * all three are durable. Two writes in the second round trip instead of three, and one in the first
 * fewer; a Read of it is one fetch. The same content saved by two results is stored twice.
 */
export async function putInline(context: PutContext, content: ContentStream): Promise<{ record: StoredRecord; deduplicated: boolean }> {
  const { store, tenant, signal } = context;
  const { header, chunks, builder } = content;
  const bytes = await readSmallContent(chunks, header.sizeBytes);
  const expiresAtMs = context.nowMs + context.retentionMs;
  const record = recordOf(header, builder.finish(), context.nowMs, expiresAtMs);
  const target = { resultId: header.resultId, sessionId: header.sessionId, revision: header.revision, expiresAtMs, inline: true } as const;
  const entryKeys = await writeResultEntries(store, tenant, target, signal, true);
  const keys = [...entryKeys, recordKey(tenant, header.resultId)];
  try {
    const saved = await saveRecord(store, tenant, record, { signal, deferSync: true, content: bytes });
    await store.sync?.(keys, signal ? { signal } : {});
    return { record: saved, deduplicated: false };
  } catch (error) {
    // As for a blob's Put: what was placed is made durable, so the sweeper can remove it after a crash.
    await store.sync?.(keys).catch(() => undefined);
    throw error;
  }
}
