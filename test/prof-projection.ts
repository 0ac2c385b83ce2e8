import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createTokenCounter, projectResult, type ResultInput, type ResultKind } from "@loupe/projection";

const counter = createTokenCounter();
function input(kind: ResultKind, text: string): ResultInput {
  return { toolName: "bash", declaredKind: kind, argsJson: "", text, structuredOnly: false, isError: false, exitCode: 1, timedOut: false, durationMs: 5000 };
}
const require = createRequire(import.meta.url);
const root = new URL("../", import.meta.url).pathname;
import { existsSync, writeFileSync } from "node:fs";
let n = 0;
const sh = (command: string): string => { const file = `/tmp/prof/case-${String(n++)}.txt`; if (existsSync(file)) return readFileSync(file, "utf8"); const out = execFileSync("bash", ["-c", command], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, cwd: root }); writeFileSync(file, out); return out; };
const all: Record<string, { kind: ResultKind; text: string }> = {
  file: { kind: "file_read", text: readFileSync(require.resolve("typescript/lib/typescript.js"), "utf8") },
  grep: { kind: "search", text: sh("grep -rn 'function' node_modules/.pnpm/typescript*/node_modules/typescript/lib/*.d.ts | head -c 20000000") },
  find: { kind: "directory_list", text: sh("find node_modules/.pnpm -maxdepth 6 | head -c 20000000") },
  tsc: { kind: "command", text: sh("for i in 1 2 3 4; do node_modules/.bin/tsc -p packages/projection --listFiles --noEmit 2>&1; done; echo 'error TS2322: boom'") },
};
const which = (process.env["CASES"] ?? "grep,find").split(",");
const kb = Number(process.env["KB"] ?? "0");
const iterations = Number(process.env["N"] ?? "50");
for (const name of which) {
  const c = all[name]!;
  const text = kb > 0 ? c.text.slice(0, kb * 1024) : c.text;
  const budget = kb > 0 ? 500 : 2000;
  const options = { budgetTokens: budget, maxViewBytes: 50 * 1024, counter, resultId: "r_bench", view: "" };
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) projectResult(input(c.kind, text), options);
  console.log(name, kb, ((performance.now() - t0) / iterations).toFixed(3), "ms/call");
}
