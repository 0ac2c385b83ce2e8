import fc from "fast-check";
import { utf8Length } from "../packages/projection/src/utf8-length.js";
fc.assert(fc.property(fc.string({ unit: "binary" }), fc.string({unit:"grapheme"}), fc.string(), (a, b, c) => { for (const t of [a, b, c, a + b + c]) if (utf8Length(t) !== new TextEncoder().encode(t).length) throw new Error(JSON.stringify(t)); }), { numRuns: 20000 });
console.log("ok");
