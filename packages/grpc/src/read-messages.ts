import type { Readable } from "node:stream";

/**
 * Iterates the messages of a grpc-js server stream. The stream's own async
 * iterator waits for the writable side of a duplex call to finish too, which
 * never happens while the handler is still writing answers: this one ends as
 * soon as the client half-closes.
 */
export async function* readMessages<T>(stream: Readable): AsyncIterable<T> {
  const queue: T[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const signal = (): void => {
    wake?.();
    wake = undefined;
  };
  const onData = (message: T): void => {
    queue.push(message);
    // Backpressure: stop reading until the consumer catches up.
    if (queue.length >= 16) stream.pause();
    signal();
  };
  const onEnd = (): void => {
    ended = true;
    signal();
  };
  const onError = (error: unknown): void => {
    failure = error;
    signal();
  };
  stream.on("data", onData);
  stream.on("end", onEnd);
  stream.on("error", onError);
  try {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        if (queue.length < 8) stream.resume();
        yield next;
        continue;
      }
      if (failure !== undefined) throw failure instanceof Error ? failure : new Error("stream failed", { cause: failure });
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off("data", onData);
    stream.off("end", onEnd);
    stream.off("error", onError);
  }
}
