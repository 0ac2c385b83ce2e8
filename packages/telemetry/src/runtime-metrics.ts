import { monitorEventLoopDelay } from "node:perf_hooks";
import type { MeterProvider } from "@opentelemetry/api";

/**
 * The process's runtime metrics under their OpenTelemetry names, read when metrics are collected:
 * `process.memory.usage` (resident bytes), `v8js.memory.heap.used` (bytes),
 * `nodejs.eventloop.delay` with `quantile` p50, p99 and max (seconds, since the last collection),
 * and `process.uptime` (seconds). Returns a function that stops the event-loop monitor.
 */
export function observeRuntime(provider: MeterProvider): () => void {
  const meter = provider.getMeter("loupe.runtime");
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  meter.createObservableGauge("process.memory.usage", { unit: "By", description: "Resident set size of the process" }).addCallback((result) => {
    result.observe(process.memoryUsage.rss());
  });
  meter.createObservableGauge("v8js.memory.heap.used", { unit: "By", description: "V8 heap in use" }).addCallback((result) => {
    result.observe(process.memoryUsage().heapUsed);
  });
  meter.createObservableGauge("process.uptime", { unit: "s", description: "Seconds since the process started" }).addCallback((result) => {
    result.observe(process.uptime());
  });
  const loop = meter.createObservableGauge("nodejs.eventloop.delay", { unit: "s", description: "Event loop delay since the last collection" });
  loop.addCallback((result) => {
    // Nanoseconds to seconds; a quantile of an empty histogram is NaN: nothing to report yet.
    for (const [quantile, value] of [
      ["p50", delay.percentile(50)],
      ["p99", delay.percentile(99)],
      ["max", delay.max],
    ] as const) {
      if (Number.isFinite(value) && value > 0) result.observe(value / 1e9, { quantile });
    }
    delay.reset();
  });
  return () => delay.disable();
}
