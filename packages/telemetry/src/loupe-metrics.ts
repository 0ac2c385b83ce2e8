import { metrics, type Attributes, type Counter, type Gauge, type Histogram, type Meter, type MeterProvider } from "@opentelemetry/api";

// Loupe's own metrics (Prometheus: `loupe_…`, counters end in `_total`). Instruments are made from
// the global meter provider in force when they are first used, and again after it changes (the
// API's metrics have no proxy: an instrument made before `startTelemetry` would stay a no-op).

let provider: MeterProvider | undefined;
let meter: Meter | undefined;
const counters = new Map<string, Counter>();
const histograms = new Map<string, Histogram>();
const gauges = new Map<string, Gauge>();

function currentMeter(): Meter {
  const current = metrics.getMeterProvider();
  if (current !== provider || meter === undefined) {
    provider = current;
    meter = current.getMeter("loupe");
    counters.clear();
    histograms.clear();
    gauges.clear();
  }
  return meter;
}

/** What each of Loupe's counters counts. */
export const LOUPE_COUNTERS = {
  "loupe.projections": "Project answers, by kind, source and whether the original was saved",
  "loupe.projection.original_tokens": "Tokens of the originals Project saw, by kind and source",
  "loupe.projection.saved_tokens": "Tokens first views left out of the context (original − view), by kind and source",
  "loupe.recoveries": "Recover answers, by how (range, pattern, view, whole)",
  "loupe.fail_open": "Project answers sent fail-open because a save failed",
  "loupe.admission.shed": "Calls shed by admission control (UNAVAILABLE, overloaded)",
  "loupe.rate_limited": "Calls refused by a tenant's rate limit (RESOURCE_EXHAUSTED)",
  "loupe.history_cuts": "CutHistory and proxy requests, by whether any result was cut",
  "loupe.history_cut.saved_tokens": "Tokens the history cut removed from vendor requests",
  "loupe.compactions": "Compact answers, by path (PREPARED, FALLBACK)",
  "loupe.turns.appended": "Turns AppendTurns accepted",
  "loupe.note.updates": "Handover notes written by the note-worker, by author",
  "loupe.events.handled": "Bus events the note-worker handled, by outcome (acked, retried, deferred, dead-lettered)",
  "loupe.events.redelivered": "Bus events delivered more than once",
  "loupe.worker_threads.failed": "Projection and counting threads that failed or exited, by whether the gateway gave up starting them (gave_up)",
} as const;

/** What each of Loupe's histograms measures. */
export const LOUPE_HISTOGRAMS = {
  "loupe.archive.put.duration": ["ms", "Time the archive took to save a result or turn batch, by store"],
  "loupe.archive.read.duration": ["ms", "Time the archive took to read a range, search or turns, by operation"],
  "loupe.note.lag_tokens": ["{token}", "Uncovered tokens behind a session's note after an update"],
} as const;

/** What each of Loupe's gauges shows (its last value). */
export const LOUPE_GAUGES = {
  "loupe.events.pending": ["{message}", "Messages waiting for the note-worker's consumer, as of its latest delivery (JetStream)"],
  "loupe.admission.limit": ["{call}", "Calls the gateway's adaptive admission limit lets run at once"],
} as const;

export type LoupeGauge = keyof typeof LOUPE_GAUGES;
export type LoupeCounter = keyof typeof LOUPE_COUNTERS;
export type LoupeHistogram = keyof typeof LOUPE_HISTOGRAMS;

/** Adds `value` (default 1) to one of Loupe's counters. No-op until telemetry is started. */
export function countMetric(name: LoupeCounter, attributes?: Attributes, value = 1): void {
  const current = currentMeter();
  let counter = counters.get(name);
  if (counter === undefined) {
    counter = current.createCounter(name, { description: LOUPE_COUNTERS[name] });
    counters.set(name, counter);
  }
  counter.add(value, attributes);
}

/** Records `value` in one of Loupe's histograms. No-op until telemetry is started. */
export function recordMetric(name: LoupeHistogram, value: number, attributes?: Attributes): void {
  const current = currentMeter();
  let histogram = histograms.get(name);
  if (histogram === undefined) {
    const [unit, description] = LOUPE_HISTOGRAMS[name];
    histogram = current.createHistogram(name, { unit, description });
    histograms.set(name, histogram);
  }
  histogram.record(value, attributes);
}

/** Sets one of Loupe's gauges to `value`. No-op until telemetry is started. */
export function setGaugeMetric(name: LoupeGauge, value: number, attributes?: Attributes): void {
  const current = currentMeter();
  let gauge = gauges.get(name);
  if (gauge === undefined) {
    const [unit, description] = LOUPE_GAUGES[name];
    gauge = current.createGauge(name, { unit, description });
    gauges.set(name, gauge);
  }
  gauge.record(value, attributes);
}
