/** One part of a body cut by {@link splitParts}. @internal */
export interface BodyPart {
  bytes: Uint8Array;
  /** True for the final part (the body ended within or right after it). */
  last: boolean;
}

/**
 * Cuts a chunk stream into parts of exactly `partSizeBytes`, except the last, which holds the rest
 * (1 to `partSizeBytes` bytes, or 0 when the whole body is empty). A part is marked `last` only once the
 * source has ended, so a body of exactly one part size comes out as one `last` part. At most one part
 * plus one chunk is held in memory.
 *
 * @internal
 */
export async function* splitParts(chunks: AsyncIterable<Uint8Array>, partSizeBytes: number): AsyncGenerator<BodyPart, void, undefined> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for await (const chunk of chunks) {
    pending.push(chunk);
    pendingBytes += chunk.byteLength;
    // Strictly greater: a part is emitted as not-last only when at least one more byte is known to follow.
    while (pendingBytes > partSizeBytes) {
      const joined = concat(pending, pendingBytes);
      yield { bytes: joined.subarray(0, partSizeBytes), last: false };
      const rest = joined.subarray(partSizeBytes);
      pending = [rest];
      pendingBytes = rest.byteLength;
    }
  }
  yield { bytes: concat(pending, pendingBytes), last: true };
}

function concat(chunks: readonly Uint8Array[], totalBytes: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const joined = new Uint8Array(totalBytes);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}
