// What a process allocated, per module, per function and per call chain (the function <- its four nearest
// callers), in MB — or MB a call with --calls N — from a profile written by support/sample-allocations.mjs:
//   LOUPE_ALLOCATIONS_DIR=/tmp/alloc LOUPE_TEST_NODE_FLAGS="--import $PWD/test/bench/support/sample-allocations.mjs" \
//     node --conditions=source --import tsx test/bench/project-memory.bench.ts
//   node --conditions=source --import tsx test/bench/summarize-allocations.ts /tmp/alloc/allocations.*.json [--calls N] [--top N]
// Start-up is in the profile too: read it beside one of the commit before, taken the same way.
import { readFile } from "node:fs/promises";
import { summarizeAllocations, type AllocationLine, type AllocationNode } from "./support/allocation-profile.js";
import { summaryArgs } from "./support/summary-args.js";

const { file, calls, perCall, top } = summaryArgs("summarize-allocations.ts allocations.<pid>.json [--calls N] [--top N]", 25);
const summary = summarizeAllocations(JSON.parse(await readFile(file, "utf8")) as { head: AllocationNode });
const unit = perCall ? "MB/call" : "MB";
const megabytes = (bytes: number): string => (bytes / 1024 / 1024 / calls).toFixed(perCall ? 4 : 1).padStart(10);
const show = (title: string, lines: readonly AllocationLine[]): void => {
  process.stdout.write(`${title} (${unit})\n`);
  for (const line of lines.slice(0, top)) process.stdout.write(`${megabytes(line.bytes)}  ${line.name}\n`);
};
process.stdout.write(`${file}: ${megabytes(summary.totalBytes)} ${unit} allocated (sampled)\n`);
show("own allocations per module", summary.modules);
show("own allocations per function", summary.functions);
show("per call chain (the function <- its callers)", summary.chains);
