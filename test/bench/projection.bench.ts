// The projection core's speed, side by side with the floor of handling the same bytes at all:
// decoding them from UTF-8 and hashing them (what every Project does anyway). Prints medians and ratios.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus } from "node:os";
import { createTokenCounter, projectResult, type ResultInput, type ResultKind } from "@loupe/projection";

const counter = createTokenCounter();
const REPEATS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(run: () => void, repeats = REPEATS): number {
  run();
  const samples: number[] = [];
  for (let index = 0; index < repeats; index++) {
    const started = process.hrtime.bigint();
    run();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(samples);
}

function input(kind: ResultKind, text: string, argsJson = "", toolName = "bash"): ResultInput {
  return { toolName, declaredKind: kind, argsJson, text, structuredOnly: false, isError: false, exitCode: 1, timedOut: false, durationMs: 5000 };
}

// Real outputs: a large source file, a recursive grep, a find over a tree, a long build log.
const require = createRequire(import.meta.url);
const typescriptFile = readFileSync(require.resolve("typescript/lib/typescript.js"), "utf8");
const root = new URL("../../", import.meta.url).pathname;
const sh = (command: string) => execFileSync("bash", ["-c", command], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, cwd: root });
// Python source that comes with every Node install: npm's copy of node-gyp ships gyp, in Python (a read of a
// `.py` path passes its long docstrings over at the view's ends).
const pythonFile = sh(`cat "$(npm root -g)"/npm/node_modules/node-gyp/gyp/pylib/gyp/*.py 2>/dev/null || true`);
const cases: Array<{ name: string; kind: ResultKind; text: string; argsJson?: string; short?: string }> = [
  { name: "file read (typescript.js)", kind: "file_read", text: typescriptFile },
  ...(pythonFile === ""
    ? []
    : [
        {
          name: "file read (gyp's Python sources)",
          kind: "file_read" as const,
          text: pythonFile,
          argsJson: JSON.stringify({ file_path: "pylib/gyp/input.py" }),
          short: "file_read (.py)",
        },
      ]),
  {
    name: "grep -rn over node_modules",
    kind: "search",
    text: sh("grep -rn 'function' node_modules/.pnpm/typescript*/node_modules/typescript/lib/*.d.ts | head -c 20000000"),
  },
  { name: "find over node_modules", kind: "directory_list", text: sh("find node_modules/.pnpm -maxdepth 6 | head -c 20000000") },
  {
    name: "command log (tsc --listFiles x4)",
    kind: "command",
    text: sh("for i in 1 2 3 4; do node_modules/.bin/tsc -p packages/projection --listFiles --noEmit 2>&1; done; echo 'error TS2322: boom'"),
  },
  {
    name: "build log with failures (node, 5 MB)",
    kind: "command",
    text: sh(
      `node -e 'for (let i = 0; i < 60000; i++) { console.log("[" + i + "] compiling module src/feature" + (i % 97) + "/index.ts ... ok"); if (i % 15000 === 7) console.log("src/feature" + i + ".ts:12:5 - error TS2322: Type string is not assignable to type number."); } console.log("Found 4 errors in 4 files.")'`,
    ),
  },
];

// A 2 KB intent as a runtime sends one (the task and the message that asked for the call), naming things the outputs hold.
const INTENT = [
  "Fix the type error TS2322 reported by the build in src/feature12/index.ts: the compiler says Type string is not assignable to type number.",
  "The failing path goes through createProgram and getTypeOfSymbol in checker.ts; resolveModuleName may return undefined for node_modules/typescript.",
  'Look for "compiling module" lines of feature41 and for SyntaxKind.Identifier handling in forEachChild, then read emitFile and reportDiagnostic.',
  "I will grep for function declarations in lib/*.d.ts, check the tsc --listFiles output for packages/projection, and open the file at line 1234.",
]
  .join("\n")
  .repeat(4)
  .slice(0, 2048);

console.log(`machine: ${cpus()[0]?.model ?? "?"} × ${String(cpus().length)}, node ${process.version}`);
console.log("\n(3) large outputs: core throughput vs decode + sha256 of the same bytes (median of 7)");
console.log("case                                 size MB   core ms   core MB/s   floor ms   core/floor   +intent ms   +intent/floor");
for (const { name, kind, text, argsJson } of cases) {
  const bytes = Buffer.from(text);
  const options = { budgetTokens: 2000, maxViewBytes: 50 * 1024, counter, resultId: "r_bench", view: "" };
  const core = time(() => projectResult(input(kind, text, argsJson), options));
  const withIntent = time(() => projectResult(input(kind, text, argsJson), { ...options, intent: INTENT }));
  const floor = time(() => {
    new TextDecoder().decode(bytes);
    createHash("sha256").update(bytes).digest("hex");
  });
  const megabytes = bytes.byteLength / 1e6;
  console.log(
    `${name.padEnd(36)} ${megabytes.toFixed(1).padStart(7)} ${core.toFixed(1).padStart(9)} ${(megabytes / (core / 1000)).toFixed(0).padStart(11)} ${floor.toFixed(1).padStart(10)} ${(core / floor).toFixed(2).padStart(12)} ${withIntent.toFixed(1).padStart(12)} ${(withIntent / floor).toFixed(2).padStart(15)}`,
  );
}

console.log("\n(4) small outputs (< 64 KB): median per-call cost");
console.log("size KB   kind              core ms   floor ms   core/floor   +intent ms   +intent/floor");
for (const kilobytes of [4, 16, 48]) {
  for (const { kind, text, argsJson, short } of cases) {
    const slice = text.slice(0, kilobytes * 1024);
    const bytes = Buffer.from(slice);
    const options = { budgetTokens: 500, maxViewBytes: 50 * 1024, counter, resultId: "r_bench", view: "" };
    const core = time(() => projectResult(input(kind, slice, argsJson), options), 21);
    const withIntent = time(() => projectResult(input(kind, slice, argsJson), { ...options, intent: INTENT }), 21);
    const floor = time(() => {
      new TextDecoder().decode(bytes);
      createHash("sha256").update(bytes).digest("hex");
    }, 21);
    console.log(
      `${String(kilobytes).padStart(7)}   ${(short ?? kind).padEnd(16)} ${core.toFixed(3).padStart(8)} ${floor.toFixed(3).padStart(10)} ${(core / floor).toFixed(1).padStart(12)} ${withIntent.toFixed(3).padStart(12)} ${(withIntent / floor).toFixed(1).padStart(15)}`,
    );
  }
}
