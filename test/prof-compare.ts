import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createTokenCounter, projectResult, type ResultKind } from "@loupe/projection";
import { projectResult as oldProject } from "./prof-old/packages/projection/src/project-result.js";
const require = createRequire(import.meta.url);
const texts: [ResultKind, string][] = [["file_read", readFileSync(require.resolve("typescript/lib/typescript.js"), "utf8")], ["search", readFileSync("/tmp/prof/case-0.txt", "utf8")], ["directory_list", readFileSync("/tmp/prof/case-1.txt", "utf8")], ["command", readFileSync("/tmp/prof/case-2.txt", "utf8")]];
const counter = createTokenCounter();
let diffs = 0, n = 0;
for (const [kind, full] of texts) for (const kb of [2, 4, 16, 48, 200, 0]) for (const budget of [100, 500, 2000]) for (const k of [kind, "generic", "directory_list", "search"] as ResultKind[]) {
  const text = kb === 0 ? full : full.slice(0, kb * 1024);
  const input = { toolName: "bash", declaredKind: k, argsJson: "", text, structuredOnly: false, isError: false, exitCode: 1, timedOut: false, durationMs: 5000 };
  const options = { budgetTokens: budget, maxViewBytes: 50 * 1024, counter, resultId: "r_x", view: "" };
  const a = JSON.stringify(projectResult(input, options)), b = JSON.stringify(oldProject(input, options));
  n++; if (a !== b) { diffs++; console.log("DIFF", kind, k, kb, budget); }
}
console.log(n, "cases", diffs, "diffs");
