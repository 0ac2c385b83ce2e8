// Project latency over gRPC, one call at a time: embedded Loupe (`loupe serve`), distributed Loupe
// (gateway + archive on the S3 server) and distributed Loupe whose gateway writes its saves to the bucket
// itself (`direct-puts`, LOUPE_GATEWAY_PUTS=direct), side by side with a bare grpc-js echo of the same bytes
// and, beside the distributed ones, the echo that first PUTs the bytes to the same S3 server (`echo+put`:
// moving and storing them once, the floor a distributed Project cannot go under; its ratio is printed too).
// Real program output of 4 KB, 64 KB and 1 MB, unique per call; the three targets take turns call by
// call, so the machine's noise falls on all of them alike. Prints p50/p99 and the ratios to the echo, and
// the CPU each server's processes spent per call (every thread, from /proc): a figure the machine's
// noise moves far less than a latency.
import { cpus } from "node:os";
import type { GrpcClient } from "@loupe/grpc";
import { removeBucket, s3ProcessEnv, s3TestEnv } from "@loupe/testing";
import type { ProjectionService } from "@loupe/proto";
import type { EmbeddedLoupe } from "../support/embedded-loupe.js";
import type { DistributedLoupe } from "../support/distributed-loupe.js";
import { createEchoClient, startEchoProcess, type EchoClient, type EchoProcess } from "./support/echo-server.js";
import { cpuMsOf } from "./support/proc-cpu.js";
import { cell, quantile, since, sleep } from "./support/stats.js";
import { realToolOutputs, sizedOutput } from "./support/tool-outputs.js";
import { BENCH_AUTH, startBenchEmbedded, startBenchDistributed } from "./support/bench-loupes.js";

const CALLS = Number(process.env["LOUPE_BENCH_CALLS"] ?? 200);
const WARMUP = 50;
// After each size's warm-up: a counting thread started by its first cut result is ready and warm.
const SETTLE_MS = 1000;
// LOUPE_BENCH_SIZES: which sizes run, in KB (default 4,16,64,1024).
const SIZES = (process.env["LOUPE_BENCH_SIZES"] ?? "4,16,64,1024").split(",").map((kilobytes) => ({
  label: Number(kilobytes) >= 1024 ? `${String(Number(kilobytes) / 1024)} MB` : `${kilobytes} KB`,
  bytes: Number(kilobytes) * 1024,
}));

// LOUPE_BENCH_ARGS=command: each call carries its output's command line as its arguments, as a runtime's shell
// tool sends it, so Loupe projects `find` and `ls -laR` as listings; by default a call carries no arguments
// and all three outputs are projected as command output (docs/benchmarks.md).
const WITH_COMMAND = process.env["LOUPE_BENCH_ARGS"] === "command";

type Target = "echo" | "echo+put" | "embedded" | "distributed" | "direct-puts";
// LOUPE_BENCH_TARGETS: which Loupes run beside the echo (default embedded,distributed,direct-puts).
const LOUPES = (process.env["LOUPE_BENCH_TARGETS"] ?? "embedded,distributed,direct-puts").split(",");
const ON_S3 = LOUPES.includes("distributed") || LOUPES.includes("direct-puts");
const TARGETS: readonly Target[] = [
  "echo",
  ...(ON_S3 ? (["echo+put"] as const) : []),
  ...(["embedded", "distributed", "direct-puts"] as const).filter((target) => LOUPES.includes(target)),
];
const PUT_BUCKET = `loupe-bench-floor-${String(process.pid)}`;

const outputs = realToolOutputs(1024 * 1024);
let echoServer: EchoProcess | undefined;
let echo: EchoClient | undefined;
let putServer: EchoProcess | undefined;
let put: EchoClient | undefined;
let embedded: EmbeddedLoupe | undefined;
let distributed: DistributedLoupe | undefined;
let directPuts: DistributedLoupe | undefined;
try {
  // The echo in a process of its own, as Loupe is: its CPU is measured the same way.
  echoServer = await startEchoProcess();
  echo = createEchoClient(`127.0.0.1:${String(echoServer.port)}`);
  if (ON_S3) {
    putServer = await startEchoProcess({ ...s3ProcessEnv(s3TestEnv(), PUT_BUCKET), LOUPE_BENCH_ECHO_STORE: "1" });
    put = createEchoClient(`127.0.0.1:${String(putServer.port)}`);
  }
  if (TARGETS.includes("embedded")) embedded = await startBenchEmbedded();
  if (TARGETS.includes("distributed")) distributed = await startBenchDistributed();
  if (TARGETS.includes("direct-puts")) directPuts = await startBenchDistributed({ directPuts: true });
  const echoClient = echo;
  const echoPid = echoServer.pid;
  const pidsOf: Record<Target, () => number[]> = {
    echo: () => [echoPid],
    "echo+put": () => [putServer!.pid],
    embedded: () => [embedded!.process.child.pid ?? 0],
    distributed: () => [distributed!.archive.child.pid ?? 0, distributed!.gateway.child.pid ?? 0],
    "direct-puts": () => [directPuts!.archive.child.pid ?? 0, directPuts!.gateway.child.pid ?? 0],
  };
  const project = (client: GrpcClient<typeof ProjectionService>, text: string, toolName: string, argsJson: string) =>
    client.project({ sessionId: "bench-latency", result: { toolName, argsJson, parts: [{ content: { case: "text", value: text } }] } });
  const callers: Record<Target, (text: string, toolName: string, argsJson: string) => Promise<boolean>> = {
    echo: async (text) => (await echoClient.echo(Buffer.from(text))).byteLength > 0,
    "echo+put": async (text) => (await put!.echo(Buffer.from(text))).byteLength > 0,
    embedded: async (text, toolName, argsJson) => (await project(embedded!.client, text, toolName, argsJson)).archived,
    distributed: async (text, toolName, argsJson) => (await project(distributed!.client, text, toolName, argsJson)).archived,
    "direct-puts": async (text, toolName, argsJson) => (await project(directPuts!.client, text, toolName, argsJson)).archived,
  };

  console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${String(cpus().length)}, node ${process.version}, auth ${BENCH_AUTH}`);
  console.log(
    `(1) Project latency, ${String(CALLS)} sequential calls per size after ${String(WARMUP)} warm-up calls (outputs: ${outputs.map((output) => output.name).join(", ")}; ${WITH_COMMAND ? "each with its command line as arguments" : "no arguments"})`,
  );
  console.log("size     target         p50 ms    p99 ms   p50/echo   p99/echo   cpu ms/call   cpu/echo   archived");
  let call = 0;
  for (const { label, bytes } of SIZES) {
    const makers = outputs.map((output) => ({
      toolName: output.toolName,
      argsJson: WITH_COMMAND ? JSON.stringify({ command: output.command }) : "",
      text: sizedOutput(output, bytes),
    }));
    const perTarget = <T>(value: () => T) => Object.fromEntries(TARGETS.map((target) => [target, value()])) as Record<Target, T>;
    const samples = perTarget<number[]>(() => []);
    const archived = perTarget(() => 0);
    const cpuAtStart = perTarget(() => 0);
    for (let index = 0; index < WARMUP + CALLS; index++) {
      const maker = makers[index % makers.length]!;
      if (index === WARMUP) {
        await sleep(SETTLE_MS);
        for (const target of TARGETS) cpuAtStart[target] = cpuMsOf(pidsOf[target]());
      }
      for (const target of TARGETS) {
        const text = maker.text(call++);
        const started = performance.now();
        const saved = await callers[target](text, maker.toolName, maker.argsJson);
        const elapsed = since(started);
        if (index < WARMUP) continue;
        samples[target].push(elapsed);
        if (saved) archived[target]++;
      }
    }
    const cpuPerCall = (target: Target): number => (cpuMsOf(pidsOf[target]()) - cpuAtStart[target]) / CALLS;
    const cpu = Object.fromEntries(TARGETS.map((target) => [target, cpuPerCall(target)])) as Record<Target, number>;
    const echoP50 = quantile(samples.echo, 0.5);
    const echoP99 = quantile(samples.echo, 0.99);
    for (const target of TARGETS) {
      const p50 = quantile(samples[target], 0.5);
      const p99 = quantile(samples[target], 0.99);
      const saved = target === "echo" ? "-" : `${String(archived[target])}/${String(CALLS)}`;
      console.log(
        `${label.padEnd(8)} ${target.padEnd(12)} ${cell(p50, 8, 2)} ${cell(p99, 9, 2)} ${cell(p50 / echoP50, 9)}× ${cell(p99 / echoP99, 9)}× ${cell(cpu[target], 12, 2)} ${cell(cpu[target] / cpu.echo, 9)}× ${saved.padStart(10)}`,
      );
    }
    if (ON_S3) {
      const floor = quantile(samples["echo+put"], 0.5);
      const above = TARGETS.filter((target) => target === "distributed" || target === "direct-puts")
        .map((target) => `${target} ${cell(quantile(samples[target], 0.5) / floor, 0)}×`)
        .join(", ");
      console.log(`${label.padEnd(8)} p50 / echo+put (the bytes moved and stored once): ${above}`);
    }
  }
} finally {
  echo?.close();
  await echoServer?.stop();
  put?.close();
  await putServer?.stop();
  if (ON_S3) await removeBucket(s3TestEnv(), PUT_BUCKET).catch(() => undefined);
  await embedded?.stop();
  await distributed?.stop();
  await directPuts?.stop();
}
