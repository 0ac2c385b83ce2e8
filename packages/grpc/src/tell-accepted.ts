/**
 * Calls a caller's `onAccepted` (see CallOptions.onAccepted): it only tells the caller, so whatever the
 * listener throws is dropped — the call goes on, and its answer or error is the handler's.
 */
export function tellAccepted(listener: (() => void) | undefined): void {
  try {
    listener?.();
  } catch {
    // A listener's failure is its own.
  }
}
