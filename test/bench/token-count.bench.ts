// Token counting, the cost under every projection and usage figure: Loupe's counter (createTokenCounter) side
// by side with the tokenizer library's own countTokens, on real program output counted whole and line by line
// (as projections count), both exact and equal. Each round counts a different mix of outputs, in a shuffled
// order, so that neither side finds them all in its caches. Prints median MB/s and the ratio.
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import { createTokenCounter } from "@loupe/projection";
import { LIBRARY_COUNTERS } from "@loupe/projection/testing";
import { median } from "./support/stats.js";

const ROUNDS = Number(process.env["LOUPE_BENCH_ROUNDS"] ?? 5);
const sh = (command: string): string => execFileSync("bash", ["-c", command], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });

// Several kinds of real output, cut into pieces of 2–64 KB at line ends.
const sources = [
  sh("find /usr/lib /usr/share 2>/dev/null | head -c 3000000"),
  sh("ls -laR /usr/share 2>/dev/null | head -c 3000000"),
  sh("cat $(find /usr/lib/python3* -name '*.py' 2>/dev/null | head -400) 2>/dev/null | head -c 3000000"),
  sh("grep -rn 'def \\|class ' /usr/lib/python3* 2>/dev/null | head -c 3000000"),
  sh("dpkg -l 2>/dev/null | head -c 1000000; cat /usr/share/doc/*/copyright 2>/dev/null | head -c 2000000"),
];
const pieces: string[] = [];
let seed = 7;
const random = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) % 1_000_000) / 1_000_000;
for (const source of sources) {
  for (let at = 0; at < source.length;) {
    const end = source.lastIndexOf("\n", at + 2048 + Math.floor(random() * 62 * 1024));
    const stop = end > at ? end + 1 : source.length;
    pieces.push(source.slice(at, stop));
    at = stop;
  }
}

const counters = { loupe: createTokenCounter("o200k_base"), library: LIBRARY_COUNTERS.o200k_base };
const rates: Record<keyof typeof counters, number[]> = { loupe: [], library: [] };
const totals: Record<keyof typeof counters, number> = { loupe: 0, library: 0 };
for (let round = 0; round < ROUNDS; round++) {
  const mix = pieces.filter(() => random() < 0.3).sort(() => random() - 0.5);
  const chars = mix.reduce((sum, text) => sum + text.length, 0);
  for (const name of round % 2 === 0 ? (["loupe", "library"] as const) : (["library", "loupe"] as const)) {
    const counter = counters[name];
    let tokens = 0;
    const started = performance.now();
    for (const text of mix) {
      tokens += counter.count(text);
      for (const line of text.split("\n")) tokens += counter.count(line);
    }
    rates[name].push((2 * chars) / 1e6 / ((performance.now() - started) / 1000));
    totals[name] += tokens;
  }
}
if (totals.loupe !== totals.library) throw new Error(`the counts differ: ${String(totals.loupe)} against ${String(totals.library)}`);
console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${String(cpus().length)}, node ${process.version}`);
console.log(`(5) token counting (o200k_base), real program output whole and line by line, median of ${String(ROUNDS)} rounds`);
console.log("counter                 MB/s   vs library");
for (const name of ["library", "loupe"] as const) {
  console.log(`${name.padEnd(20)} ${median(rates[name]).toFixed(1).padStart(7)}   ${(median(rates[name]) / median(rates.library)).toFixed(2).padStart(9)}×`);
}
