export { readString, readOptionalString, readInt, readPort, readBool, readList, readEnum, readUrl } from "./readers.js";
export { throwOnProblems } from "./throw-on-problems.js";
export type { Env, ConfigProblems, ReadIntOptions } from "./readers.js";
