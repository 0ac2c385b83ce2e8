import type { ToolText } from "./extract-tool-text.js";
import type { HookRuntime } from "./hook-runtime.js";
import { openCodeWholeRead } from "./opencode-read.js";
import { objectField, stringField } from "./hook-io.js";
import { wholeRead } from "./whole-read.js";

/**
 * The read the call asked for, from the file itself, when the runtime cut it short before the hook saw
 * it: Claude Code's Read (see wholeRead) and OpenCode's read (see openCodeWholeRead); undefined otherwise.
 */
export async function readFromDisk(
  runtime: HookRuntime,
  toolName: string,
  text: ToolText,
  input: Record<string, unknown>,
  toolResponse: unknown,
  maxBytes: number,
): Promise<string | undefined> {
  const args = objectField(input, "tool_input");
  if (text.numbered !== undefined)
    return wholeRead({ file: objectField(toolResponse, "file"), args, cwd: stringField(input, "cwd") || process.cwd(), maxBytes });
  if (runtime !== "opencode" || toolName !== "read" || typeof toolResponse !== "string") return undefined;
  return openCodeWholeRead(args, toolResponse, maxBytes);
}
