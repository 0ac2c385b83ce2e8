import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createTokenCounter } from "@loupe/projection";
import { tokenSegments } from "../packages/projection/src/file-read/token-segments.js";
const require = createRequire(import.meta.url);
const texts = [readFileSync(require.resolve("typescript/lib/typescript.js"), "utf8").slice(0, 3_000_000), ...[0, 1, 2].map((n) => readFileSync(`/tmp/prof/case-${String(n)}.txt`, "utf8").slice(0, 3_000_000))];
for (const enc of ["o200k_base", "cl100k_base"] as const) {
  const c = createTokenCounter(enc);
  for (const t of texts) { const segs = [...tokenSegments(t)]; const sum = segs.reduce((s, x) => s + c.count(x), 0); console.log(enc, t.length, segs.length, sum, c.count(t), sum === c.count(t)); }
}
