import { AppError } from "@loupe/errors";
import type { ConfigProblems } from "./readers.js";

/**
 * Throws one `invalid_argument` AppError listing every problem — in its message, and as data in
 * its `problems` — or returns when there are none. `service` names the loader in the message.
 */
export function throwOnProblems(service: string, problems: ConfigProblems): void {
  if (problems.length === 0) return;
  const list = problems.map((problem) => `  - ${problem}`).join("\n");
  throw new AppError("invalid_argument", `invalid ${service} configuration [${String(problems.length)} problem(s)]\n${list}`, { problems: [...problems] });
}
