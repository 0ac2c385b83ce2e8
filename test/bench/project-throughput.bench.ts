// Project throughput under load: 256 concurrent callers sending 10 KB results (real program output,
// unique per call) to embedded Loupe and to distributed Loupe (a gateway and an archive process on
// Ceph RGW, with Redis and NATS), side by side with a bare grpc-js echo of the same bytes at the
// same load, served by a process of its own as Loupe is. Rounds alternate between the two; prints the median calls/s and MB/s, the ratio, how
// many Loupe answers were saved (archived=true; a save that misses its time budget goes fail-open)
// and how many calls admission control shed (UNAVAILABLE, overloaded; the caller retries after the
// pushback). LOUPE_BENCH_ROUND_MS sets the round length (default 8 s; 60 s: 60000), LOUPE_BENCH_ROUNDS
// their number (default 3), LOUPE_BENCH_TARGETS which Loupes run (default embedded,distributed,direct-puts;
// direct-puts: distributed Loupe whose gateway writes its saves to the bucket itself, LOUPE_GATEWAY_PUTS=direct).
import { cpus } from "node:os";
import { isAppError } from "@loupe/errors";
import type { EmbeddedLoupe } from "../support/embedded-loupe.js";
import type { DistributedLoupe } from "../support/distributed-loupe.js";
import { createEchoClient, startEchoProcess, type EchoClient, type EchoProcess } from "./support/echo-server.js";
import { cpuMsOf } from "./support/proc-cpu.js";
import { cell, median, quantile, since } from "./support/stats.js";
import { realToolOutputs, sizedOutput } from "./support/tool-outputs.js";
import { BENCH_AUTH, startBenchEmbedded, startBenchDistributed } from "./support/bench-loupes.js";

const CALLERS = 256;
const RESULT_BYTES = 10 * 1024;
const ROUND_MS = Number(process.env["LOUPE_BENCH_ROUND_MS"] ?? 8000);
const WARMUP_MS = 2000;
const ROUNDS = Number(process.env["LOUPE_BENCH_ROUNDS"] ?? 3);
const LOUPES = (process.env["LOUPE_BENCH_TARGETS"] ?? "embedded,distributed,direct-puts").split(",");

interface Round {
  /** Answered calls (shed ones not counted). */
  calls: number;
  /** CPU milliseconds the target's server processes and this process (the callers) used in the round. */
  serverCpuMs: number;
  callersCpuMs: number;
  /** Calls shed by admission control. */
  shed: number;
  /** Calls that failed otherwise. */
  errors: number;
  /** Answers that said archived=true. */
  archived: number;
  bytes: number;
  seconds: number;
  latencies: number[];
}

const outputs = realToolOutputs(RESULT_BYTES);
const makers = outputs.map((output) => ({ toolName: output.toolName, text: sizedOutput(output, RESULT_BYTES) }));
let next = 0;

/** Runs CALLERS callers, each calling `call` back to back until `durationMs` is over. */
async function load(call: (text: string, toolName: string) => Promise<unknown>, durationMs: number, pids: readonly number[] = []): Promise<Round> {
  const round: Round = { calls: 0, serverCpuMs: 0, callersCpuMs: 0, shed: 0, errors: 0, archived: 0, bytes: 0, seconds: 0, latencies: [] };
  const serverCpuAtStart = cpuMsOf(pids);
  const callersCpuAtStart = process.cpuUsage();
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < deadline) {
        const number = next++;
        const maker = makers[number % makers.length]!;
        const text = maker.text(number);
        const callStarted = performance.now();
        let answer: unknown;
        try {
          answer = await call(text, maker.toolName);
        } catch (error) {
          if (isAppError(error) && error.reason === "overloaded") {
            round.shed++;
            // A shed caller waits the pushback it was given, as a client should.
            await new Promise((resolve) => setTimeout(resolve, error.retryAfterMs ?? 250));
          } else round.errors++;
          continue;
        }
        round.latencies.push(since(callStarted));
        round.calls++;
        if ((answer as { archived?: unknown }).archived === true) round.archived++;
        round.bytes += Buffer.byteLength(text);
      }
    }),
  );
  round.seconds = since(started) / 1000;
  round.serverCpuMs = cpuMsOf(pids) - serverCpuAtStart;
  const callersCpu = process.cpuUsage(callersCpuAtStart);
  round.callersCpuMs = (callersCpu.user + callersCpu.system) / 1000;
  return round;
}

let echoServer: EchoProcess | undefined;
let echo: EchoClient | undefined;
let embedded: EmbeddedLoupe | undefined;
let distributed: DistributedLoupe | undefined;
let directPuts: DistributedLoupe | undefined;
type Call = (text: string, toolName: string) => Promise<unknown>;
const projectWith =
  (client: Pick<EmbeddedLoupe["client"], "project">): Call =>
  (text, toolName) =>
    client.project({ sessionId: "bench-throughput", result: { toolName, parts: [{ content: { case: "text", value: text } }] } });
try {
  echoServer = await startEchoProcess();
  echo = createEchoClient(`127.0.0.1:${String(echoServer.port)}`);
  const echoClient = echo;
  const targets: Record<string, Call> = { echo: (text: string) => echoClient.echo(Buffer.from(text)) };
  // The processes serving each target, whose CPU a round reads from /proc (the S3, Redis and NATS servers aside).
  const pids: Record<string, number[]> = { echo: [echoServer.pid] };
  const loupePids = (loupe: DistributedLoupe): number[] => [loupe.gateway.child.pid ?? 0, loupe.archive.child.pid ?? 0];
  if (LOUPES.includes("embedded")) {
    targets["embedded"] = projectWith((embedded = await startBenchEmbedded()).client);
    pids["embedded"] = [embedded.process.child.pid ?? 0];
  }
  if (LOUPES.includes("distributed")) {
    targets["distributed"] = projectWith((distributed = await startBenchDistributed()).client);
    pids["distributed"] = loupePids(distributed);
  }
  if (LOUPES.includes("direct-puts")) {
    targets["direct-puts"] = projectWith((directPuts = await startBenchDistributed({ directPuts: true })).client);
    pids["direct-puts"] = loupePids(directPuts);
  }
  const rounds: Record<string, Round[]> = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (const call of Object.values(targets)) await load(call, WARMUP_MS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, call] of Object.entries(targets)) rounds[name]?.push(await load(call, ROUND_MS, pids[name]));
  }

  console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${String(cpus().length)}, node ${process.version}, auth ${BENCH_AUTH}`);
  console.log(
    `(2) throughput: ${String(CALLERS)} concurrent callers, ${String(RESULT_BYTES / 1024)} KB results, median of ${String(ROUNDS)} rounds of ${String(ROUND_MS / 1000)} s`,
  );
  console.log("target         calls/s      MB/s   p50 ms   p99 ms   calls/s vs echo   archived   shed   errors   server CPU ms/call   callers CPU ms/call");
  const rate = (round: Round) => round.calls / round.seconds;
  const echoRate = median((rounds["echo"] ?? []).map(rate));
  for (const [name, done] of Object.entries(rounds)) {
    const callsPerSecond = median(done.map(rate));
    const megabytesPerSecond = median(done.map((round) => round.bytes / 1e6 / round.seconds));
    const latencies = done.flatMap((round) => round.latencies);
    const calls = done.reduce((sum, round) => sum + round.calls, 0);
    const archived = name === "echo" ? "-" : `${((100 * done.reduce((sum, round) => sum + round.archived, 0)) / calls).toFixed(0)}%`;
    const shed = done.reduce((sum, round) => sum + round.shed, 0);
    const errors = done.reduce((sum, round) => sum + round.errors, 0);
    const shedShare = `${((100 * shed) / Math.max(1, shed + calls)).toFixed(1)}%`;
    const serverCpu = median(done.map((round) => round.serverCpuMs / Math.max(1, round.calls)));
    const callersCpu = median(done.map((round) => round.callersCpuMs / Math.max(1, round.calls)));
    console.log(
      `${name.padEnd(12)} ${cell(callsPerSecond, 9, 0)} ${cell(megabytesPerSecond, 9, 2)} ${cell(quantile(latencies, 0.5), 8)} ${cell(quantile(latencies, 0.99), 8)} ${cell(callsPerSecond / echoRate, 12, 3)}× ${archived.padStart(10)} ${shedShare.padStart(6)} ${String(errors).padStart(8)} ${cell(serverCpu, 20, 2)} ${cell(callersCpu, 21, 2)}`,
    );
  }
} finally {
  echo?.close();
  await echoServer?.stop();
  await embedded?.stop();
  await distributed?.stop();
  await directPuts?.stop();
}
