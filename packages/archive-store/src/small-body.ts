import { bodyChunks } from "./body-chunks.js";
import { JOURNAL_MAX_BODY_BYTES } from "./object-journal.js";

/**
 * A body of at most `maxBytes` (default: small enough for the journal) as one buffer (its size checked);
 * undefined for a larger or unsized stream. @internal
 */
export async function smallBody(
  body: Uint8Array | AsyncIterable<Uint8Array>,
  sizeBytes: number | undefined,
  signal: AbortSignal | undefined,
  context: string,
  maxBytes = JOURNAL_MAX_BODY_BYTES,
): Promise<Uint8Array | undefined> {
  if (body instanceof Uint8Array) {
    if ((sizeBytes ?? body.byteLength) !== body.byteLength || body.byteLength > maxBytes) return undefined;
    return body;
  }
  if (sizeBytes === undefined || sizeBytes > maxBytes) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of bodyChunks(body, sizeBytes, signal, context)) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
