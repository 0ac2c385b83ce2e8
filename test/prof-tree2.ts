import { readFileSync } from "node:fs";
import { splitLines } from "@loupe/projection";
import { parseListing } from "../packages/projection/src/listing/parse-listing.js";
const lines = splitLines(readFileSync("/tmp/prof/case-1.txt", "utf8"));
const t0 = performance.now(); for (let i = 0; i < 300; i++) parseListing(lines); console.log("parse", ((performance.now() - t0) / 300).toFixed(3));
