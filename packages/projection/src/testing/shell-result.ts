import type { ResultInput } from "../project-result.js";
import type { ResultKind } from "../projectors/projector.js";

/** A successful `bash` call's result for tests: `command` as its arguments ("" = none), `kind` as declared. */
export function shellResult(text: string, command = "", kind?: ResultKind): ResultInput {
  return {
    toolName: "bash",
    declaredKind: kind,
    argsJson: command === "" ? "" : JSON.stringify({ command }),
    text,
    structuredOnly: false,
    isError: false,
    exitCode: 0,
    timedOut: false,
    durationMs: undefined,
  };
}
