import type { SummarizeOptions } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import { appErrorFromVendor, type Vendor } from "./vendor-error.js";

/** How often `onProgress` is called while a vendor request is in flight, in milliseconds. */
export const PROGRESS_INTERVAL_MS = 2_000;

/**
 * Runs one vendor request: refuses to start when `options.signal` is already aborted, calls
 * `options.onProgress` every {@link PROGRESS_INTERVAL_MS} while the request is in flight, and
 * translates any failure with {@link appErrorFromVendor} (the key never reaches the message).
 */
export async function callVendor<T>(
  vendor: Vendor,
  apiKey: string,
  options: SummarizeOptions,
  request: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (options.signal?.aborted === true) throw new AppError("cancelled", `${vendor} request cancelled before it started`);
  const onProgress = options.onProgress;
  const timer =
    onProgress === undefined
      ? undefined
      : setInterval(() => {
          try {
            onProgress();
          } catch {
            // Progress is advisory: a failing callback must not end the process from a timer.
          }
        }, PROGRESS_INTERVAL_MS);
  try {
    return await request(options.signal);
  } catch (error) {
    throw appErrorFromVendor(vendor, error, apiKey, options.signal);
  } finally {
    clearInterval(timer);
  }
}
