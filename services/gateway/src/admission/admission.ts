import { AppError } from "@loupe/errors";
import { countMetric, setGaugeMetric } from "@loupe/telemetry";

/** How much work one gateway process takes at once. */
export interface AdmissionLimits {
  /** Calls running at once at most; more wait in line. */
  maxInFlight: number;
  /** How long a call may wait in line before it is shed. */
  maxWaitMs: number;
  /** The fewest calls the adaptive limit lets run at once (default 4, at most maxInFlight). */
  minInFlight?: number;
}

/** Counts of what admission did. */
export interface AdmissionCounters {
  admitted: number;
  queued: number;
  shed: number;
  /** Calls allowed to run at once now (the adaptive limit, between minInFlight and maxInFlight). */
  limit: number;
}

/** Bounded in-flight work: `run` admits a call now, in line within the wait, or sheds it. */
export interface Admission {
  readonly counters: AdmissionCounters;
  /**
   * Runs `call` once a slot is free.
   * @throws AppError `unavailable` (reason `overloaded`, with `retryAfterMs`) when no slot frees within the wait
   */
  run<T>(call: () => Promise<T>): Promise<T>;
  /**
   * Tells how long a save to the archive took against its budget (a failed save: the whole budget).
   * Saves past half their budget shrink the limit, quick ones grow it back.
   */
  observeSave(ms: number, budgetMs: number): void;
}

/** The pushback a shed call is told to wait (grpc-retry-pushback-ms, Retry-After). */
const RETRY_AFTER_MS = 250;
/** A save slower than this share of its budget means the archive is saturated: fewer calls at once. */
const SLOW_SHARE = 0.5;
/** A save quicker than this share of its budget leaves room: one more call at once, over `limit` saves. */
const QUICK_SHARE = 0.25;
/** Each shrink keeps this share of the limit. */
const DECREASE = 0.75;
/** At most one shrink per this many ms: the saves in flight when the limit shrank were started under the old one. */
const DECREASE_EVERY_MS = 250;

/**
 * Admission control for one process: at most `limit` calls run at once; others wait in line (first
 * come, first served) up to `maxWaitMs` and are then answered UNAVAILABLE at once, with when to
 * retry — the gateway's own overload is never answered fail-open.
 *
 * The limit adapts to the archive (additive increase, multiplicative decrease on save latency):
 * a gateway that admits more saves than the archive can take within their budget would answer
 * the excess fail-open, so slow saves shrink the limit towards `minInFlight` and the excess waits
 * in line or is shed with a pushback; quick saves grow it back to `maxInFlight`.
 */
export function createAdmission(limits: AdmissionLimits, nowMs: () => number = () => performance.now()): Admission {
  const floor = Math.min(limits.maxInFlight, Math.max(1, limits.minInFlight ?? 4));
  let limit = limits.maxInFlight;
  const counters: AdmissionCounters = { admitted: 0, queued: 0, shed: 0, limit };
  let running = 0;
  let lastDecrease = -Infinity;
  const line: Array<() => void> = [];
  const allowed = (): number => Math.floor(limit);
  const pump = (): void => {
    while (running < allowed() && line.length > 0) {
      running++;
      line.shift()?.();
    }
  };
  const slot = (): Promise<void> => {
    if (running < allowed() && line.length === 0) {
      running++;
      return Promise.resolve();
    }
    counters.queued++;
    return new Promise<void>((resolve, reject) => {
      const admit = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = line.indexOf(admit);
        if (index >= 0) line.splice(index, 1);
        counters.shed++;
        countMetric("loupe.admission.shed");
        reject(
          new AppError("unavailable", `overloaded: ${String(allowed())} calls running and none finished within ${String(limits.maxWaitMs)} ms; retry shortly`, {
            reason: "overloaded",
            retryAfterMs: RETRY_AFTER_MS,
          }),
        );
      }, limits.maxWaitMs);
      line.push(admit);
    });
  };
  return {
    counters,
    async run(call) {
      await slot();
      counters.admitted++;
      try {
        return await call();
      } finally {
        running--;
        pump();
      }
    },
    observeSave(ms, budgetMs) {
      if (ms >= budgetMs * SLOW_SHARE) {
        const now = nowMs();
        if (now - lastDecrease < DECREASE_EVERY_MS) return;
        lastDecrease = now;
        limit = Math.max(floor, limit * DECREASE);
      } else if (ms < budgetMs * QUICK_SHARE) {
        limit = Math.min(limits.maxInFlight, limit + 1 / limit);
        pump();
      }
      counters.limit = allowed();
      setGaugeMetric("loupe.admission.limit", counters.limit);
    },
  };
}
