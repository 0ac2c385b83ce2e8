// Peak memory under a burst: 100 concurrent Project calls of 1 MB results (real program output, unique
// per call) to embedded Loupe (`loupe serve`), side by side with a bare grpc-js echo process taking the
// same burst. Both are child processes started the same way (node, tsx); memory is read from
// /proc/<pid>/status: VmRSS at idle, VmHWM (peak resident set) after the burst. A fresh pair of processes
// per round; prints medians and ratios.
import { cpus } from "node:os";
import type { EmbeddedLoupe } from "../support/embedded-loupe.js";
import { createEchoClient, startEchoProcess, type EchoClient, type EchoProcess } from "./support/echo-server.js";
import { residentMemory } from "./support/proc-memory.js";
import { cell, median, since, sleep } from "./support/stats.js";
import { realToolOutputs, sizedOutput } from "./support/tool-outputs.js";
import { BENCH_AUTH, startBenchEmbedded } from "./support/bench-loupes.js";

const CONCURRENT = 100;
const RESULT_BYTES = 1024 * 1024;
const ROUNDS = 3;
const SETTLE_MS = 2000;

interface Sample {
  idleMb: number;
  peakMb: number;
  afterMb: number;
  burstMs: number;
}

const outputs = realToolOutputs(RESULT_BYTES);
const makers = outputs.map((output) => ({ toolName: output.toolName, text: sizedOutput(output, RESULT_BYTES) }));
let next = 0;

/** Idle RSS after settling, then one burst of CONCURRENT calls, then the peak and what stays resident. */
async function measure(pid: number, call: (text: string, toolName: string) => Promise<unknown>): Promise<Sample> {
  await sleep(SETTLE_MS);
  const idleMb = residentMemory(pid).rssMb;
  const requests = Array.from({ length: CONCURRENT }, () => {
    const number = next++;
    const maker = makers[number % makers.length]!;
    return { text: maker.text(number), toolName: maker.toolName };
  });
  const started = performance.now();
  await Promise.all(requests.map(({ text, toolName }) => call(text, toolName)));
  const burstMs = since(started);
  await sleep(SETTLE_MS);
  const { peakMb, rssMb } = residentMemory(pid);
  return { idleMb, peakMb, afterMb: rssMb, burstMs };
}

const samples: { echo: Sample[]; embedded: Sample[] } = { echo: [], embedded: [] };
for (let round = 0; round < ROUNDS; round++) {
  let echo: EchoProcess | undefined;
  let echoClient: EchoClient | undefined;
  let embedded: EmbeddedLoupe | undefined;
  try {
    echo = await startEchoProcess();
    const client = createEchoClient(`127.0.0.1:${String(echo.port)}`);
    echoClient = client;
    samples.echo.push(await measure(echo.pid, (text) => client.echo(Buffer.from(text))));
    embedded = await startBenchEmbedded();
    const loupe = embedded;
    const pid = loupe.process.child.pid;
    if (pid === undefined) throw new Error("loupe serve has no pid");
    samples.embedded.push(
      await measure(pid, (text, toolName) =>
        loupe.client.project({ sessionId: "bench-memory", result: { toolName, parts: [{ content: { case: "text", value: text } }] } }),
      ),
    );
  } finally {
    echoClient?.close();
    await echo?.stop();
    await embedded?.stop();
  }
}

console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${String(cpus().length)}, node ${process.version}, auth ${BENCH_AUTH}`);
console.log(
  `(4) memory: ${String(CONCURRENT)} concurrent ${String(RESULT_BYTES / 1024 / 1024)} MB results, fresh processes, median of ${String(ROUNDS)} rounds`,
);
console.log("process          idle RSS MB   peak (VmHWM) MB   peak - idle MB   RSS after MB   burst ms");
for (const name of ["echo", "embedded"] as const) {
  const pick = (field: keyof Sample) => median(samples[name].map((sample) => sample[field]));
  console.log(
    `${(name === "echo" ? "echo" : "loupe serve").padEnd(15)} ${cell(pick("idleMb"), 12, 0)} ${cell(pick("peakMb"), 17, 0)} ${cell(median(samples[name].map((sample) => sample.peakMb - sample.idleMb)), 16, 0)} ${cell(pick("afterMb"), 14, 0)} ${cell(pick("burstMs"), 10, 0)}`,
  );
}
const ratio = (field: keyof Sample) => median(samples.embedded.map((sample) => sample[field])) / median(samples.echo.map((sample) => sample[field]));
console.log(
  `loupe serve / echo: idle ${ratio("idleMb").toFixed(1)}×, peak ${ratio("peakMb").toFixed(1)}×, peak above idle ${(median(samples.embedded.map((sample) => sample.peakMb - sample.idleMb)) / median(samples.echo.map((sample) => sample.peakMb - sample.idleMb))).toFixed(1)}×`,
);
