import { AppError } from "@loupe/errors";
import { stateKey, type StateStore } from "@loupe/state-store";

/** Checks a tenant's rate of calls; throws when it is over. */
export type RateLimit = (tenant: string) => Promise<void>;

/** Compare-and-set attempts before a call that keeps losing the race is counted as over the rate. */
const MAX_ATTEMPTS = 8;

/**
 * A per-tenant token bucket of `perSecond` calls a second, holding at most one second of calls (a burst
 * of `perSecond`), kept in the state store so every gateway replica shares it. It is the generic cell
 * rate algorithm: one value per tenant, the time at which the bucket would be full again ("theoretical
 * arrival time"), moved on by 1000/perSecond ms per call with compare-and-set. Unlike counting in fixed
 * one-second windows, it never lets two bursts through around a window's edge. A call over the rate is
 * refused with RESOURCE_EXHAUSTED (reason `rate_limited`, HTTP 429) and told when one call's worth has
 * refilled. `perSecond` 0 = no limit.
 */
export function createRateLimit(state: StateStore, perSecond: number, nowMs: () => number, onLimited?: () => void): RateLimit {
  if (perSecond === 0) return () => Promise.resolve();
  const intervalMs = 1000 / perSecond;
  const capacityMs = 1000;
  const limited = (retryAfterMs: number): AppError => {
    onLimited?.();
    return new AppError("resource_exhausted", `rate limit of ${String(perSecond)} calls a second for this tenant reached; retry shortly`, {
      reason: "rate_limited",
      retryAfterMs: Math.max(1, Math.ceil(retryAfterMs)),
    });
  };
  return async (tenant) => {
    const key = stateKey(tenant, "rate");
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = nowMs();
      const stored = await state.get(key);
      const full = stored === undefined ? now : Math.max(now, Number(stored));
      const next = full + intervalMs;
      if (next - now > capacityMs) throw limited(next - now - capacityMs);
      // Kept only while it matters: after it the bucket is full again and the key may go.
      if (await state.compareAndSet(key, stored, String(next), { ttlMs: Math.ceil(next - now) + 1000 })) return;
    }
    // Every attempt lost to another call of the same tenant: that many at once is over the rate.
    throw limited(intervalMs);
  };
}
