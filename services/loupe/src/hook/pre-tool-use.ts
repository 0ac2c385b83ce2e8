import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorMessage, passThrough, readPayload, stringField, type HookIo } from "./hook-io.js";
import { CANNOT_REWRITE, hookRuntimeOf, replaceInputAnswer } from "./hook-runtime.js";
import { grepLinesOf, liftGrepLimit } from "./lift-grep-limit.js";
import { loupeListening } from "./loupe-listening.js";
import { contextFromPayload } from "./transcript-intent.js";
import { isWrappable, wrapShellCommand, type LoupeInvocation } from "./wrap-shell-command.js";

/** Shell tools whose `command` input the hook rewrites, by the names runtimes give them. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(["Bash", "bash", "run_shell_command", "shell"]);
const MAX_PAYLOAD_BYTES = 1024 * 1024;

const PRELOAD_FLAGS = new Set(["--import", "--require", "-r", "--loader", "--experimental-loader"]);

/**
 * How this very process was started, so the rewritten command runs the same `loupe` from any
 * folder the agent's shell is in: node, its flags (a preloaded module named by package, such as
 * `--import tsx` when run from source, resolved to its file), and the entry point.
 */
export function currentInvocation(): LoupeInvocation {
  const flags = process.execArgv.map((flag, index) => {
    const previous = process.execArgv[index - 1] ?? "";
    if (!PRELOAD_FLAGS.has(previous) || /^(\.|\/|file:)/.test(flag)) return flag;
    try {
      return import.meta.resolve(flag);
    } catch {
      // Left as it is: node resolves it from the folder it starts in, as before.
      return flag;
    }
  });
  return { argv: [process.execPath, ...flags, process.argv[1] ?? ""] };
}

/** A new file in `folder` holding `content`, readable by its owner alone, with a name nobody can guess or take first. */
function createPrivateFile(folder: string, extension: string, content: string): string {
  const path = join(folder, `loupe-exec-${randomBytes(12).toString("hex")}.${extension}`);
  writeFileSync(path, content, { flag: "wx", mode: 0o600 });
  return path;
}

/**
 * Creates the empty file a wrapped command writes its output to, in the temporary folder (see
 * createPrivateFile). The hook makes it, so the command needs no `$(mktemp)` (which Gemini CLI
 * refuses); the command removes it after the report (a command the agent then never runs, say one
 * the user refused, leaves it behind, empty).
 */
export function createOutputFile(folder: string = tmpdir()): string {
  return createPrivateFile(folder, "out", "");
}

/** What a plugin passed of the call (see contextFromPayload), in a private file for `loupe exec`; none when it passed nothing. */
function contextFileOf(payload: Record<string, unknown>): { contextFile?: string } {
  const context = contextFromPayload(payload);
  if (context === undefined || (context.intent === "" && context.model === "")) return {};
  return { contextFile: createPrivateFile(tmpdir(), "context", JSON.stringify(context)) };
}

/**
 * `loupe hook pre-tool-use [--runtime R]`: reads one pre-tool payload (Claude Code's PreToolUse,
 * Gemini CLI's BeforeTool, the OpenCode plugin's) from stdin and, for a shell tool (Bash,
 * run_shell_command, bash), prints the runtime's changed-input answer (Claude Code `{
 * hookSpecificOutput: { hookEventName, updatedInput } }`, Gemini CLI `{ hookSpecificOutput: {
 * hookEventName, tool_input } }`, OpenCode `{ updatedInput }`) whose command runs the original in the agent's own shell with
 * its output captured, then saved in Loupe and replaced by the first view (`loupe exec
 * --report`), keeping the command's exit status. A failing command's output is thereby projected
 * too — the runtime's post-tool hook for failures cannot replace output. No permission decision
 * is made: the agent's own permission rules apply as before. A Claude Code Grep
 * that names no `head_limit` gets one of LOUPE_GREP_LINES (default 10,000) instead of Claude
 * Code's 250, so the post-tool hook projects the whole search (see liftGrepLimit) — only when something
 * listens where Loupe should be (loupeListening), so that with Loupe down the Grep keeps Claude Code's cut. Background
 * commands, commands already wrapped and other tools are left alone (nothing printed). Never blocks the agent:
 * always resolves 0; anything unexpected prints nothing and one line on stderr.
 */
export async function preToolUseHook(
  env: NodeJS.ProcessEnv,
  io: HookIo,
  runtimeFlag?: string,
  invocation: LoupeInvocation = currentInvocation(),
): Promise<number> {
  try {
    const read = await readPayload(io, MAX_PAYLOAD_BYTES);
    if ("reason" in read) return (passThrough(io, read.reason), 0);
    const input = read.payload;
    const runtime = hookRuntimeOf(input, runtimeFlag);
    const toolName = stringField(input, "tool_name");
    const toolInput = input["tool_input"];
    if (typeof toolInput !== "object" || toolInput === null) return 0;
    const args = toolInput as Record<string, unknown>;
    const event = stringField(input, "hook_event_name") || "PreToolUse";
    const lifted = liftGrepLimit(runtime, toolName, args, grepLinesOf(env));
    if (lifted !== undefined) {
      // Only Loupe would cut the larger search: with Loupe down, Claude Code's own cut stays.
      if (!(await loupeListening(env)))
        return (passThrough(io, `nothing listens where Loupe should be; Grep keeps Claude Code's own cut [tool=${toolName}]`), 0);
      io.writeOut(JSON.stringify(replaceInputAnswer(runtime, event, lifted)) + "\n");
      return 0;
    }
    if (!SHELL_TOOLS.has(toolName)) return 0;
    const command = args["command"];
    if (typeof command !== "string" || args["run_in_background"] === true || !isWrappable(command)) return 0;
    const cannot = CANNOT_REWRITE[runtime];
    if (cannot !== undefined) return (passThrough(io, `${cannot} [tool=${toolName}]`), 0);
    const wrapped = wrapShellCommand(command, invocation, {
      sessionId: stringField(input, "session_id"),
      source: env["LOUPE_SOURCE"] ?? runtime,
      toolName,
      outputFile: createOutputFile(),
      transcript: { runtime, path: stringField(input, "transcript_path"), toolUseId: stringField(input, "tool_use_id") },
      ...contextFileOf(input),
    });
    io.writeOut(JSON.stringify(replaceInputAnswer(runtime, event, { ...args, command: wrapped })) + "\n");
    return 0;
  } catch (error) {
    passThrough(io, `unexpected error [error=${errorMessage(error)}]`);
    return 0;
  }
}
