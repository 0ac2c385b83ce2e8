import { inferKind, parseArgs } from "@loupe/projection";
import type { CorpusRow } from "./corpus-row.js";
import { toolCallOf } from "./tool-call.js";

/**
 * The kind Loupe infers for a corpus call as the `loupe` and `core` policies
 * send it (a shell call as `bash` with its command): command, file_read,
 * search, directory_list, edit, generic … Reports group outputs by it.
 */
export function kindOfRow(row: CorpusRow): string {
  const call = toolCallOf(row);
  return inferKind({ toolName: call.toolName, args: parseArgs(call.argsJson), text: row.output, declared: undefined });
}
