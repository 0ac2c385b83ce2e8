import { create } from "@bufbuild/protobuf";
import { revisionOf, type ArchiveStore } from "@loupe/archive-store";
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
