import { readFileSync } from "node:fs";
import { splitLines } from "@loupe/projection";
import { parseListing } from "../packages/projection/src/listing/parse-listing.js";
const lines = splitLines(readFileSync("/tmp/prof/case-1.txt", "utf8"));
let l = parseListing(lines);
console.log(lines.length, l.tree.path.length);
const t0 = performance.now(); for (let i = 0; i < 50; i++) l = parseListing(lines); console.log("parse", ((performance.now() - t0) / 50).toFixed(3));
const m = new Map<string, number>(); const t1 = performance.now();
for (let i = 0; i < 50; i++) { m.clear(); for (const line of lines) { const p = line.slice(0, line.lastIndexOf("/")); m.set(p, (m.get(p) ?? 0) + 1); } }
console.log("map", ((performance.now() - t1) / 50).toFixed(3));
const NOTE = /^(?:total \d+|find: |ls: |tree: |du: |grep: )|^\s*$/;
const bench = (name: string, f: () => void) => { const t = performance.now(); for (let i = 0; i < 50; i++) f(); console.log(name, ((performance.now() - t) / 50).toFixed(3)); };
bench("note", () => { for (const line of lines) NOTE.test(line); });
bench("clean", () => { for (const line of lines) line.slice(0, -1); });
bench("longtest", () => { for (const line of lines) /^[-dlcbpsD][-rwx]/.test(line); });
bench("includes", () => { for (const line of lines) line.includes(" -> "); });
bench("lastIndexOf+slice", () => { for (const line of lines) line.slice(0, line.lastIndexOf("/")); });
