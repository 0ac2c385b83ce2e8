import { create } from "@bufbuild/protobuf";
import { revisionOf } from "@loupe/archive-store";
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
