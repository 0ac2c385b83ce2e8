// Where a Project call's time goes: embedded Loupe traced into an in-process OTLP receiver, one call at a
// time, then per span name (every service's spans): how many per call and their median duration. Not a
// benchmark (tracing costs time of its own): it shows what to look at. Run with
// `node --conditions=source --import tsx test/bench/profile-project.ts [bytes] [calls]`.
import { startEmbeddedLoupe } from "../support/embedded-loupe.js";
import { startOtlpReceiver } from "../support/otlp-receiver.js";
import { quantile } from "./support/stats.js";
import { realToolOutputs, sizedOutput } from "./support/tool-outputs.js";

const BYTES = Number(process.argv[2] ?? 4096);
const CALLS = Number(process.argv[3] ?? 200);

const receiver = await startOtlpReceiver();
const loupe = await startEmbeddedLoupe({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_BSP_SCHEDULE_DELAY: "100",
  OTEL_TRACES_SAMPLER: "always_on",
});
try {
  const outputs = realToolOutputs(BYTES);
  const makers = outputs.map((output) => sizedOutput(output, BYTES));
  const wall: number[] = [];
  for (let call = 0; call < CALLS + 20; call++) {
    const started = performance.now();
    await loupe.client.project({
      sessionId: "profile",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: makers[call % makers.length]!(call) } }] },
    });
    if (call >= 20) wall.push(performance.now() - started);
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const byName = new Map<string, number[]>();
  for (const span of receiver.spans) byName.set(`${span.service} ${span.name}`, [...(byName.get(`${span.service} ${span.name}`) ?? []), span.durationMs]);
  console.log(`${String(CALLS)} calls of ${String(BYTES)} bytes: wall p50 ${quantile(wall, 0.5).toFixed(2)} ms`);
  console.log("span                                                   per call   p50 ms   p90 ms");
  for (const [name, durations] of [...byName].sort((a, b) => quantile(b[1], 0.5) - quantile(a[1], 0.5))) {
    console.log(
      `${name.padEnd(54)} ${(durations.length / (CALLS + 20)).toFixed(2).padStart(8)} ${quantile(durations, 0.5).toFixed(2).padStart(8)} ${quantile(durations, 0.9).toFixed(2).padStart(8)}`,
    );
  }
} finally {
  await loupe.stop();
  await receiver.close();
}
