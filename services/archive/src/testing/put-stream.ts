import { create } from "@bufbuild/protobuf";
import { revisionOf, type ArchiveStore } from "@loupe/archive-store";
import { putResult } from "../put-result.js";
import { PutHeaderSchema, type PutHeader, type PutRequest } from "@loupe/proto";

/** A Put's request stream for tests: a header for `text` (revision and size from it, `header` over the defaults), then one chunk. */
export async function* putStream(
  header: Partial<Omit<PutHeader, "$typeName">>,
  text: string,
  defaults: { resultId: string } = { resultId: "r_put0000000000000000" },
): AsyncIterable<PutRequest> {
  const bytes = new TextEncoder().encode(text);
  const value = create(PutHeaderSchema, {
    resultId: defaults.resultId,
    sessionId: "s",
    revision: revisionOf(bytes),
    sizeBytes: BigInt(bytes.byteLength),
    ...header,
  });
  yield { message: { case: "header", value } } as PutRequest;
  yield { message: { case: "chunk", value: bytes } } as PutRequest;
}

/**
 * `store` as a concurrent delete of a blob's last other user leaves it for a Put that found the blob stored:
 * the blob (and its line index) removed just before the Put checks that it is still there.
 */
export function deletingBlobsBeforeCheck(store: ArchiveStore): ArchiveStore {
  const raced: ArchiveStore = {
    ...store,
    stats: store.stats,
    exists: async (key, options) => {
      if (/\/blobs\/[0-9a-f]{64}$/.test(key)) await store.delete(key, options);
      return store.exists(key, options);
    },
  };
  const putAll = store.putAll?.bind(store);
  return putAll === undefined ? raced : { ...raced, putAll };
}

/**
 * Two Puts of the same content on `store` (under `idPrefix` + 1 and + 2, ids of 22 characters), the blob
 * deleted by a concurrent delete just before the second checks it (see deletingBlobsBeforeCheck): makes the
 * first Put, and answers the second to make (it should reject with `aborted`).
 */
export async function putTwiceBlobDeleted(store: ArchiveStore, idPrefix: string, nowMs: number): Promise<() => Promise<unknown>> {
  const raced = deletingBlobsBeforeCheck(store);
  const putOn = (resultId: string) =>
    putResult(putStream({ resultId }, "raced content\n"), {
      store: raced,
      tenant: "t",
      nowMs,
      retentionMs: 86_400_000,
      maxResultBytes: 1 << 20,
      inlineMaxBytes: 0,
    });
  await putOn(`${idPrefix}1`);
  return () => putOn(`${idPrefix}2`);
}
