// Reads an allocation profile written by support/sample-allocations.mjs: what was allocated per
// function (its own allocations) and per call chain (the function and its four nearest callers), in MB,
// or per call with `--calls N`. Start-up is in the profile too: compare profiles taken the same way.
//   node --conditions=source --import tsx test/bench/summarize-allocations.ts allocations.<pid>.json [--calls N] [--top N]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

const { positionals, values } = parseArgs({ allowPositionals: true, options: { calls: { type: "string" }, top: { type: "string", default: "25" } } });
const file = positionals[0];
if (file === undefined) {
  process.stderr.write("usage: summarize-allocations.ts allocations.<pid>.json [--calls N] [--top N]\n");
  process.exit(2);
}
const calls = Number(values.calls ?? 1);
const top = Number(values.top);
const profile = JSON.parse(readFileSync(file, "utf8")) as { head: ProfileNode };

const nameOf = (frame: CallFrame): string =>
  `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, "").replace(/^.*\/(packages|services)\//, "$1/")}:${String(frame.lineNumber + 1)}`;
const own = new Map<string, number>();
const chains = new Map<string, number>();
let total = 0;
const walk = (node: ProfileNode, callers: readonly string[]): void => {
  const name = nameOf(node.callFrame);
  total += node.selfSize;
  if (node.selfSize > 0) {
    own.set(name, (own.get(name) ?? 0) + node.selfSize);
    const chain = [name, ...callers.slice(-4).reverse()].join("  <-  ");
    chains.set(chain, (chains.get(chain) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, [...callers, name]);
};
walk(profile.head, []);

const unit = calls > 1 ? "MB per call" : "MB";
const megabytes = (bytes: number): string => (bytes / 1024 / 1024 / calls).toFixed(calls > 1 ? 4 : 1).padStart(9);
console.log(`${file}: ${megabytes(total)} ${unit} allocated (sampled)`);
for (const [title, table] of [
  ["own allocations per function", own],
  ["per call chain (the function <- its callers)", chains],
] as const) {
  console.log(`${title} (${unit})`);
  for (const [name, bytes] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${megabytes(bytes)}  ${name}`);
}
