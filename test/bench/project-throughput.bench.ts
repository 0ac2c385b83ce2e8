// Project throughput under load: 256 concurrent callers sending 10 KB results (real program output,
// unique per call) to embedded Loupe, side by side with a bare grpc-js echo of the same bytes at the
// same load. Rounds alternate between the two; prints the median calls/s and MB/s, the ratio, and how
// many Loupe answers were saved (archived=true; under overload the save can miss its time budget, and
// the answer goes fail-open).
import { cpus } from "node:os";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { createEchoClient, startEchoServer, type EchoClient, type EchoServer } from "./support/echo-server.js";
import { cell, median, quantile, since } from "./support/stats.js";
import { realToolOutputs, sizedOutput } from "./support/tool-outputs.js";

const CALLERS = 256;
const RESULT_BYTES = 10 * 1024;
const ROUND_MS = Number(process.env["LOUPE_BENCH_ROUND_MS"] ?? 8000);
const WARMUP_MS = 2000;
const ROUNDS = 3;

interface Round {
  calls: number;
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
async function load(call: (text: string, toolName: string) => Promise<unknown>, durationMs: number): Promise<Round> {
  const round: Round = { calls: 0, archived: 0, bytes: 0, seconds: 0, latencies: [] };
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < deadline) {
        const number = next++;
        const maker = makers[number % makers.length]!;
        const text = maker.text(number);
        const callStarted = performance.now();
        const answer = await call(text, maker.toolName);
        round.latencies.push(since(callStarted));
        round.calls++;
        if ((answer as { archived?: unknown }).archived === true) round.archived++;
        round.bytes += Buffer.byteLength(text);
      }
    }),
  );
  round.seconds = since(started) / 1000;
  return round;
}

let echoServer: EchoServer | undefined;
let echo: EchoClient | undefined;
let embedded: EmbeddedLoupe | undefined;
try {
  echoServer = await startEchoServer();
  echo = createEchoClient(`127.0.0.1:${String(echoServer.port)}`);
  embedded = await startEmbeddedLoupe();
  const echoClient = echo;
  const loupeClient = embedded.client;
  const targets = {
    echo: (text: string) => echoClient.echo(Buffer.from(text)),
    embedded: (text: string, toolName: string) => loupeClient.project({ sessionId: "bench-throughput", result: { toolName, parts: [{ content: { case: "text", value: text } }] } }),
  };
  const rounds: Record<keyof typeof targets, Round[]> = { echo: [], embedded: [] };
  for (const call of Object.values(targets)) await load(call, WARMUP_MS);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, call] of Object.entries(targets) as Array<[keyof typeof targets, (text: string, toolName: string) => Promise<unknown>]>) {
      rounds[name].push(await load(call, ROUND_MS));
    }
  }

  console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${String(cpus().length)}, node ${process.version}`);
  console.log(`(2) throughput: ${String(CALLERS)} concurrent callers, ${String(RESULT_BYTES / 1024)} KB results, median of ${String(ROUNDS)} rounds of ${String(ROUND_MS / 1000)} s`);
  console.log("target       calls/s      MB/s   p50 ms   p99 ms   calls/s vs echo   archived");
  const rate = (round: Round) => round.calls / round.seconds;
  const echoRate = median(rounds.echo.map(rate));
  for (const name of Object.keys(targets) as Array<keyof typeof targets>) {
    const callsPerSecond = median(rounds[name].map(rate));
    const megabytesPerSecond = median(rounds[name].map((round) => round.bytes / 1e6 / round.seconds));
    const latencies = rounds[name].flatMap((round) => round.latencies);
    const calls = rounds[name].reduce((sum, round) => sum + round.calls, 0);
    const archived = name === "echo" ? "-" : `${(100 * rounds[name].reduce((sum, round) => sum + round.archived, 0) / calls).toFixed(0)}%`;
    console.log(`${name.padEnd(10)} ${cell(callsPerSecond, 9, 0)} ${cell(megabytesPerSecond, 9, 2)} ${cell(quantile(latencies, 0.5), 8)} ${cell(quantile(latencies, 0.99), 8)} ${cell(callsPerSecond / echoRate, 12, 3)}× ${archived.padStart(10)}`);
  }
} finally {
  echo?.close();
  await echoServer?.stop();
  await embedded?.stop();
}
