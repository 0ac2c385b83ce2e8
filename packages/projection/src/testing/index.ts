/** Test support for packages that project results: a tool result as a shell call returns it; the tokenizer library's own counting. Tests and benchmarks only. */
export { shellResult } from "./shell-result.js";
export { LIBRARY_COUNTERS } from "../fast-count.js";
