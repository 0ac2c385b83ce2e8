import type { TurnToolCall } from "../turn.js";
import { LIMITS } from "./extractive-state.js";
import { filesOfCall } from "./extract-files.js";
import type { FileTouch } from "./extract-files.js";
import { clipText, fingerprint, oneLine } from "./text-bounds.js";

/** What the extractor needs of one tool call. */
export interface CallInfo {
  name: string;
  args: Readonly<Record<string, unknown>>;
  /** The shell script the call runs ("" when it is not a shell call). */
  command: string;
  /** One line: `Bash \`npm test\``, `Edit src/a.ts`, `TodoWrite`. */
  summary: string;
  /** Equal for two calls that run the same command (or the same tool on the same file). */
  key: string;
  files: FileTouch[];
}

const LEADING_CD = /^\s*(cd\s+\S+\s*(&&|;)\s*)+/;
const COMMAND_FIELDS = ["command", "cmd", "script"] as const;
// An editor tool's `command` is a sub-command (view, str_replace), not a shell script.
const EDITOR_TOOL = /editor|str_replace|edit_file/i;

/**
 * Reads a tool call: parses its JSON arguments (text that is not JSON, or a
 * JSON string, is taken as a command line, as some agents send), finds the
 * shell script it runs, the files it touches, a one-line summary and the key
 * that identifies "the same command". Never throws.
 */
export function callInfoOf(call: Pick<TurnToolCall, "name" | "argsJson">): CallInfo {
  const parsed = parseArgs(call.argsJson);
  const args: Readonly<Record<string, unknown>> =
    typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  const command = typeof parsed === "string" ? parsed : commandOf(call.name, args);
  const files = filesOfCall(call.name, args, command);
  const name = oneLine(call.name) || "tool";
  if (command !== "") {
    const shown = clipText(oneLine(firstLine(command.replace(LEADING_CD, ""))), LIMITS.callChars - name.length - 3);
    return { name, args, command, summary: `${name} \`${shown}\``, key: `$ ${commandKey(command)}`, files };
  }
  const file = files[0]?.path;
  const editorCommand = typeof args["command"] === "string" && /^\w+$/.test(args["command"]) ? ` ${args["command"]}` : "";
  const summary = file !== undefined ? `${name}${editorCommand} ${file}` : `${name}${editorCommand}`;
  const key = file !== undefined ? summary : `${summary} #${fingerprint(call.argsJson)}`;
  return { name, args, command, summary: clipText(summary, LIMITS.callChars), key, files };
}

function parseArgs(argsJson: string): unknown {
  if (argsJson.trim() === "") return {};
  try {
    return JSON.parse(argsJson) as unknown;
  } catch {
    // Arguments that are not JSON are a raw command line.
    return argsJson;
  }
}

function commandOf(name: string, args: Readonly<Record<string, unknown>>): string {
  if (EDITOR_TOOL.test(name)) return "";
  for (const field of COMMAND_FIELDS) {
    const value = args[field];
    if (typeof value === "string" && value.trim() !== "") return value;
    if (Array.isArray(value) && value.length > 0 && value.every((word): word is string => typeof word === "string")) {
      // ["bash", "-lc", "script"]: the script is the command.
      const last = value[value.length - 1] ?? "";
      return value.length >= 3 && /(^|\/)(ba|z)?sh$/.test(value[0] ?? "") && /^-\w*c$/.test(value[value.length - 2] ?? "") ? last : value.join(" ");
    }
  }
  return "";
}

function firstLine(text: string): string {
  const lines = text.split("\n").map((line) => line.trim());
  const first = lines.findIndex((line) => line !== "");
  const more = lines.slice(first + 1).some((line) => line !== "");
  return first === -1 ? "" : `${lines[first] ?? ""}${more ? " …" : ""}`;
}

// `cd /repo && npm test` and `npm  test` are the same command.
function commandKey(command: string): string {
  const normal = oneLine(command).replace(LEADING_CD, "");
  return normal.length <= 160 ? normal : `${normal.slice(0, 140)}… #${fingerprint(normal)}`;
}
