// Where a CPU profile's time went, per module and per function, in ms — or ms a call with --calls N.
// Profile `loupe serve` under a bench's load, then summarize its main thread's profile:
//   LOUPE_TEST_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" LOUPE_BENCH_TARGETS=embedded \
//     node --conditions=source --import tsx test/bench/project-throughput.bench.ts
//   node --conditions=source --import tsx test/bench/summarize-profile.ts /tmp/prof/CPU.*.0.001.cpuprofile --calls 9000
// A profile covers the process's whole life (start-up, the bench's other rounds): read its figures beside
// one of the commit before, taken the same way. Not a benchmark: it shows what to look at.
import { readFile } from "node:fs/promises";
import { summarizeProfile, type CpuProfile, type ProfileLine } from "./support/cpu-profile.js";
import { summaryArgs } from "./support/summary-args.js";

const { file, calls, perCall, top, extra } = summaryArgs("summarize-profile.ts FILE.cpuprofile [--calls N] [--top N] [--match TEXT]", 40, ["match"]);
const summary = summarizeProfile(JSON.parse(await readFile(file, "utf8")) as CpuProfile);
const unit = perCall ? "ms/call" : "ms";
const show = (title: string, lines: readonly ProfileLine[]): void => {
  process.stdout.write(`${title}\n`);
  const shown = lines.filter((line) => extra["match"] === undefined || line.name.includes(extra["match"])).slice(0, top);
  for (const line of shown) process.stdout.write(`${(line.ms / calls).toFixed(3).padStart(10)}  ${line.name}\n`);
};
process.stdout.write(`${file}: ${(summary.totalMs / calls).toFixed(3)} ${unit} sampled, ${(summary.busyMs / calls).toFixed(3)} busy\n`);
show(`own time per module (${unit})`, summary.modules);
show(`time on the stack per function (${unit})`, summary.functions);
