// The durable append under every journal of Loupe's files (the archive's, the bus's message log, the
// state store's): AppendLog, whose lines overwrite zeros written ahead of them, side by side with the
// plain way — append to the end, then fdatasync (each sync then also commits the file's new size).
// Sequential appends of lines the size of a 4 KB result's journal line; medians and the ratio.
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppendLog } from "@loupe/durable-file";
import { cell, median, quantile } from "./support/stats.js";

const APPENDS = Number(process.env.LOUPE_BENCH_APPENDS ?? 400);
const ROUNDS = 3;
const line = JSON.stringify({ m: [["v1/local/blobs/x", Buffer.alloc(4096, 97).toString("base64")]] });
const directory = await mkdtemp(join(tmpdir(), "loupe-bench-append-"));

async function plain(path: string): Promise<number[]> {
  const handle = await open(path, "a");
  const samples: number[] = [];
  try {
    for (let index = 0; index < APPENDS; index++) {
      const started = performance.now();
      await handle.write(`${line}\n`);
      await handle.datasync();
      samples.push(performance.now() - started);
    }
  } finally {
    await handle.close();
  }
  return samples;
}

async function appendLog(path: string): Promise<number[]> {
  const { log } = await AppendLog.open(path);
  const samples: number[] = [];
  try {
    for (let index = 0; index < APPENDS; index++) {
      const started = performance.now();
      await log.append(line);
      samples.push(performance.now() - started);
    }
  } finally {
    await log.close();
  }
  return samples;
}

try {
  console.log(
    `append + fdatasync of ${String(line.length)}-byte lines, ${String(APPENDS)} in a row, ${String(ROUNDS)} rounds alternating (file system of ${tmpdir()})`,
  );
  console.log("round   plain p50 ms   plain p90   AppendLog p50 ms   AppendLog p90   AppendLog/plain p50");
  for (let round = 1; round <= ROUNDS; round++) {
    const base = await plain(join(directory, `plain-${String(round)}.log`));
    const ours = await appendLog(join(directory, `log-${String(round)}.log`));
    console.log(
      `${cell(round, 5, 0)} ${cell(median(base), 14, 3)} ${cell(quantile(base, 0.9), 11, 3)} ${cell(median(ours), 18, 3)} ${cell(quantile(ours, 0.9), 15, 3)} ${cell(median(ours) / median(base), 21, 2)}×`,
    );
  }
} finally {
  await rm(directory, { recursive: true, force: true });
}
