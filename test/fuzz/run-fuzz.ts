import { readFileSync } from "node:fs";
import { startEmbeddedLoupe } from "../support/embedded-loupe.js";
import { formatOutcomes, runFuzz } from "./fuzz-surfaces.js";

// `pnpm fuzz [requests] [seed]`: hostile requests against a fresh embedded Loupe; a table by outcome, then the failures.
const requests = Number(process.argv[2] ?? 100_000);
const seed = Number(process.argv[3] ?? Date.now() % 2 ** 31);
const loupe = await startEmbeddedLoupe();
const started = Date.now();
/** The Loupe process's resident and peak memory, MiB (Linux /proc; "?" elsewhere). */
const serverMemory = (): string => {
  try {
    const status = readFileSync(`/proc/${String(loupe.process.child.pid)}/status`, "utf8");
    const field = (name: string): string => String(Math.round(Number(/\d+/.exec(new RegExp(`^${name}:.*$`, "m").exec(status)?.[0] ?? "")?.[0] ?? NaN) / 1024));
    return `RSS ${field("VmRSS")} MiB, peak ${field("VmHWM")} MiB`;
  } catch {
    return "?";
  }
};
const memoryBefore = serverMemory();
try {
  const report = await runFuzz({ grpcPort: loupe.grpcPort, httpPort: loupe.httpPort, requests, seed, concurrency: 16 });
  process.stdout.write(
    `fuzz: ${String(requests)} requests, seed ${String(seed)}, ${String(Math.round((Date.now() - started) / 1000))} s\n${formatOutcomes(report.outcomes)}\n`,
  );
  const healthy = (await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/healthz`)).status === 200;
  process.stdout.write(
    `still serving: ${String(healthy)}; the Loupe process: before ${memoryBefore}; after ${serverMemory()}
`,
  );
  for (const failure of report.failures.slice(0, 20)) process.stdout.write(`FAILURE ${failure}\n`);
  process.exitCode = report.failures.length === 0 && healthy ? 0 : 1;
} finally {
  await loupe.stop();
}
