/** Test support for packages that project results: a tool result as a shell call returns it. Tests only. */
export { shellResult } from "./shell-result.js";
