import type { AppError } from "@loupe/errors";
import type { Subscription } from "./bus.js";

/** A Subscription plus the adapter's way to end it with an error. */
export interface SubscriptionHandle {
  readonly subscription: Subscription;
  /** Ends the subscription on its own: stops the work, then rejects `done` with `error`. */
  fail(error: AppError): void;
}

/**
 * The lifecycle every adapter's subscription shares: `stop()` runs
 * `stopWork` once (also when `signal` aborts) and then resolves `done`.
 * `done` carries a no-op rejection handler, so a subscription that nobody
 * awaits cannot crash the process with an unhandled rejection.
 */
export function createSubscriptionHandle(stopWork: () => Promise<void>, signal?: AbortSignal): SubscriptionHandle {
  let resolveDone: () => void = () => undefined;
  let rejectDone: (error: AppError) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  done.catch(() => undefined);
  let stopping: Promise<void> | undefined;
  const end = (error?: AppError): Promise<void> => {
    stopping ??= (async () => {
      signal?.removeEventListener("abort", onAbort);
      try {
        await stopWork();
      } finally {
        if (error) rejectDone(error);
        else resolveDone();
      }
    })();
    return stopping;
  };
  const onAbort = (): void => void end().catch(() => undefined);
  if (signal?.aborted) queueMicrotask(onAbort);
  else signal?.addEventListener("abort", onAbort, { once: true });
  return {
    subscription: { stop: () => end(), done },
    fail: (error) => void end(error).catch(() => undefined),
  };
}
