import { AppError } from "@loupe/errors";
import { abortError, throwIfAborted } from "./abort-error.js";

/**
 * Walks a put body chunk by chunk, checking `signal` before each chunk and, when `sizeBytes` is given,
 * that the body has exactly that many bytes. A body longer than `sizeBytes` fails before its last
 * expected byte is yielded, so a consumer sending with `Content-Length: sizeBytes` never completes a
 * request for a wrong body.
 *
 * @throws AppError `invalid_argument` on a length mismatch, `cancelled`/`deadline_exceeded` on abort.
 * @internal
 */
export async function* bodyChunks(
  body: Uint8Array | AsyncIterable<Uint8Array>,
  sizeBytes: number | undefined,
  signal: AbortSignal | undefined,
  context: string,
): AsyncGenerator<Uint8Array, void, undefined> {
  if (sizeBytes !== undefined && !(Number.isSafeInteger(sizeBytes) && sizeBytes >= 0)) {
    throw new AppError("invalid_argument", `invalid body size [sizeBytes=${String(sizeBytes)}, ${context}]`);
  }
  const iterator = (body instanceof Uint8Array ? single(body) : body)[Symbol.asyncIterator]();
  let seenBytes = 0;
  try {
    const pull = (): Promise<IteratorResult<Uint8Array>> => nextOrAbort(iterator, signal, context);
    for (let next = await pull(); next.done !== true; next = await pull()) {
      const chunk = next.value;
      seenBytes += chunk.byteLength;
      if (sizeBytes !== undefined && seenBytes > sizeBytes) throw sizeMismatch(sizeBytes, seenBytes, context);
      if (sizeBytes !== undefined && seenBytes === sizeBytes) {
        await expectEnd(pull, sizeBytes, context);
        throwIfAborted(signal, context);
        if (chunk.byteLength > 0) yield chunk;
        return;
      }
      if (chunk.byteLength > 0) yield chunk;
    }
  } finally {
    // Not awaited: after an abort the body may still be stuck in next(), and return() would queue behind it.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
  throwIfAborted(signal, context);
  if (sizeBytes !== undefined && seenBytes !== sizeBytes) throw sizeMismatch(sizeBytes, seenBytes, context);
}

async function* single(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

async function expectEnd(pull: () => Promise<IteratorResult<Uint8Array>>, sizeBytes: number, context: string): Promise<void> {
  for (let next = await pull(); next.done !== true; next = await pull()) {
    if (next.value.byteLength > 0) throw sizeMismatch(sizeBytes, sizeBytes + 1, context);
  }
}

/** The body's next chunk, or an abort error as soon as `signal` fires, even while the body is still producing. */
async function nextOrAbort(iterator: AsyncIterator<Uint8Array>, signal: AbortSignal | undefined, context: string): Promise<IteratorResult<Uint8Array>> {
  throwIfAborted(signal, context);
  if (signal === undefined) return iterator.next();
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(abortError(signal, context));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  const next = iterator.next();
  // The losing next() may reject later (the body failing after the abort); that is not unhandled.
  next.catch(() => undefined);
  try {
    return await Promise.race([next, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function sizeMismatch(sizeBytes: number, seenBytes: number, context: string): AppError {
  const seen = seenBytes > sizeBytes ? `more than ${String(sizeBytes)}` : String(seenBytes);
  return new AppError("invalid_argument", `body length differs from sizeBytes [sizeBytes=${String(sizeBytes)}, received=${seen}, ${context}]`);
}
