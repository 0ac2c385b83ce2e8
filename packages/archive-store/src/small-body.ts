import { bodyChunks } from "./body-chunks.js";
import { JOURNAL_MAX_BODY_BYTES } from "./object-journal.js";

/** A body small enough for the journal, as one buffer (its size checked); undefined for a larger or unsized stream. @internal */
export async function smallBody(
  body: Uint8Array | AsyncIterable<Uint8Array>,
  sizeBytes: number | undefined,
  signal: AbortSignal | undefined,
  context: string,
): Promise<Uint8Array | undefined> {
  if (body instanceof Uint8Array) {
    if ((sizeBytes ?? body.byteLength) !== body.byteLength || body.byteLength > JOURNAL_MAX_BODY_BYTES) return undefined;
    return body;
  }
  if (sizeBytes === undefined || sizeBytes > JOURNAL_MAX_BODY_BYTES) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of bodyChunks(body, sizeBytes, signal, context)) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
