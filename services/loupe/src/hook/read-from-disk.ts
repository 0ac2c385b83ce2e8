import type { ToolText } from "./extract-tool-text.js";
import type { HookRuntime } from "./hook-runtime.js";
import { openCodeWholeRead } from "./opencode-read.js";
import { readReport } from "./read-layout.js";
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
  if (text.numbered !== undefined) return wholeRead(readReport(input, toolResponse, maxBytes));
  if (runtime !== "opencode" || toolName !== "read" || typeof toolResponse !== "string") return undefined;
  const args = input["tool_input"];
  return openCodeWholeRead(typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {}, toolResponse, maxBytes);
}
