// Project latency over gRPC, one call at a time: embedded Loupe (`loupe serve`) and distributed Loupe
// (gateway + archive on the S3 server), side by side with a bare grpc-js echo of the same bytes.
// Real program output of 4 KB, 64 KB and 1 MB, unique per call; the three targets take turns call by
// call, so the machine's noise falls on all of them alike. Prints p50/p99 and the ratios to the echo.
import { cpus } from "node:os";
import type { GrpcClient } from "@loupe/grpc";
import type { ProjectionService } from "@loupe/proto";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { startDistributedLoupe, type DistributedLoupe } from "./support/distributed-loupe.js";
import { createEchoClient, startEchoServer, type EchoClient, type EchoServer } from "./support/echo-server.js";
import { cell, quantile, since } from "./support/stats.js";
import { realToolOutputs, sizedOutput } from "./support/tool-outputs.js";

const CALLS = Number(process.env["LOUPE_BENCH_CALLS"] ?? 200);
const WARMUP = 20;
const SIZES = [
  { label: "4 KB", bytes: 4 * 1024 },
  { label: "16 KB", bytes: 16 * 1024 },
  { label: "64 KB", bytes: 64 * 1024 },
  { label: "1 MB", bytes: 1024 * 1024 },
];

type Target = "echo" | "embedded" | "distributed";
// LOUPE_BENCH_TARGETS: which Loupes run beside the echo (default embedded,distributed).
const LOUPES = (process.env["LOUPE_BENCH_TARGETS"] ?? "embedded,distributed").split(",");
const TARGETS: readonly Target[] = ["echo", ...(["embedded", "distributed"] as const).filter((target) => LOUPES.includes(target))];

const outputs = realToolOutputs(1024 * 1024);
let echoServer: EchoServer | undefined;
let echo: EchoClient | undefined;
let embedded: EmbeddedLoupe | undefined;
let distributed: DistributedLoupe | undefined;
try {
  echoServer = await startEchoServer();
  echo = createEchoClient(`127.0.0.1:${String(echoServer.port)}`);
  if (TARGETS.includes("embedded")) embedded = await startEmbeddedLoupe();
  if (TARGETS.includes("distributed")) distributed = await startDistributedLoupe();
  const echoClient = echo;
  const project = (client: GrpcClient<typeof ProjectionService>, text: string, toolName: string) =>
    client.project({ sessionId: "bench-latency", result: { toolName, parts: [{ content: { case: "text", value: text } }] } });
  const callers: Record<Target, (text: string, toolName: string) => Promise<boolean>> = {
    echo: async (text) => (await echoClient.echo(Buffer.from(text))).byteLength > 0,
    embedded: async (text, toolName) => (await project(embedded!.client, text, toolName)).archived,
    distributed: async (text, toolName) => (await project(distributed!.client, text, toolName)).archived,
  };

  console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${String(cpus().length)}, node ${process.version}`);
  console.log(
    `(1) Project latency, ${String(CALLS)} sequential calls per size after ${String(WARMUP)} warm-up calls (outputs: ${outputs.map((output) => output.name).join(", ")})`,
  );
  console.log("size     target         p50 ms    p99 ms   p50/echo   p99/echo   archived");
  let call = 0;
  for (const { label, bytes } of SIZES) {
    const makers = outputs.map((output) => ({ toolName: output.toolName, text: sizedOutput(output, bytes) }));
    const samples: Record<Target, number[]> = { echo: [], embedded: [], distributed: [] };
    const archived: Record<Target, number> = { echo: 0, embedded: 0, distributed: 0 };
    for (let index = 0; index < WARMUP + CALLS; index++) {
      const maker = makers[index % makers.length]!;
      for (const target of TARGETS) {
        const text = maker.text(call++);
        const started = performance.now();
        const saved = await callers[target](text, maker.toolName);
        const elapsed = since(started);
        if (index < WARMUP) continue;
        samples[target].push(elapsed);
        if (saved) archived[target]++;
      }
    }
    const echoP50 = quantile(samples.echo, 0.5);
    const echoP99 = quantile(samples.echo, 0.99);
    for (const target of TARGETS) {
      const p50 = quantile(samples[target], 0.5);
      const p99 = quantile(samples[target], 0.99);
      const saved = target === "echo" ? "-" : `${String(archived[target])}/${String(CALLS)}`;
      console.log(
        `${label.padEnd(8)} ${target.padEnd(12)} ${cell(p50, 8, 2)} ${cell(p99, 9, 2)} ${cell(p50 / echoP50, 9)}× ${cell(p99 / echoP99, 9)}× ${saved.padStart(10)}`,
      );
    }
  }
} finally {
  echo?.close();
  await echoServer?.stop();
  await embedded?.stop();
  await distributed?.stop();
}
