import { readFile } from "node:fs/promises";
import { DEFAULT_MAX_RESULT_BYTES } from "@loupe/grpc/limits";
import { projectCaller, type ProjectCallAnswer } from "../project-call/project-call.js";
import { extractToolText, responseIsError, type ToolPart, type ToolText } from "./extract-tool-text.js";
import { errorMessage, passThrough, positiveInt, readPayload, stringField, type HookIo } from "./hook-io.js";
import { CANNOT_REPLACE, carriesContext, hookRuntimeOf, isLoupeMcpTool, replaceOutputAnswer } from "./hook-runtime.js";
import { filePathOf, readLayout } from "./read-layout.js";
import { readFromDisk } from "./read-from-disk.js";
import { contextFromPayload, contextFromTranscript } from "./transcript-intent.js";

export type { HookIo } from "./hook-io.js";

/** Default deadline of the Project call made by the hook: 2,000 ms (LOUPE_HOOK_TIMEOUT_MS). */
export const DEFAULT_HOOK_TIMEOUT_MS = 2000;

/** The whole output when the runtime saved it to a file and cut what it handed the hook; else the parts as they are. */
async function wholeParts(text: ToolText, maxBytes: number): Promise<{ parts: readonly ToolPart[] } | { reason: string }> {
  if (text.persistedPath === undefined) return { parts: text.parts };
  try {
    const whole = await readFile(text.persistedPath);
    if (whole.byteLength > maxBytes)
      return { reason: `the saved output is larger than LOUPE_MAX_RESULT_BYTES [path=${text.persistedPath}, limit_bytes=${String(maxBytes)}]` };
    // The saved file holds stdout; stderr (after its marker line) is kept as the tool gave it.
    const stderrAt = text.parts[0]?.value.indexOf("\n[stderr]\n") ?? -1;
    const stderr = stderrAt < 0 ? "" : (text.parts[0]?.value.slice(stderrAt) ?? "");
    return { parts: [{ kind: "text", value: whole.toString("utf8") + stderr }] };
  } catch (error) {
    return { reason: `cannot read the saved output [path=${text.persistedPath}, error=${errorMessage(error)}]` };
  }
}

const textOf = (answer: ProjectCallAnswer): string => answer.parts.map((part) => part.value).join("");

/**
 * `loupe hook post-tool-use [--runtime R]`: reads one post-tool payload (Claude
 * Code's PostToolUse and PostToolUseFailure, the Agent SDK's, Codex's, the
 * OpenCode plugin's) from stdin, projects the tool's output through a running
 * Loupe (LOUPE_HTTP_URL over HTTP, else LOUPE_ADDR over gRPC, else the local
 * default — see projectCaller — with LOUPE_TOKEN; the app is LOUPE_SOURCE, else
 * the runtime's name) and, when the view differs, prints the
 * runtime's replacement answer: Claude Code `{ hookSpecificOutput: {
 * hookEventName, updatedToolOutput } }` in the tool's own response shape (MCP
 * tools also get `updatedMCPToolOutput`), Codex `{ decision: "block", reason:
 * view }` (which replaces the output word for word), OpenCode's plugin `{
 * updatedToolOutput }`. Gemini CLI's AfterTool cannot replace output. When the runtime saved the whole
 * output to a file and handed the hook a cut (`persistedOutputPath`), the whole
 * file is projected and the replacement never carries the persisted fields (the
 * runtime would show its own 2 KB preview instead). A read the runtime numbers
 * itself gets the view's first run of lines under their true numbers, and the rest of
 * the view beside them (Claude Code's `additionalContext`: its notices, and its later
 * lines each numbered as in the file), never a notice among the numbered lines.
 * Loupe's own MCP tools (read_result, …) are left alone: their answers are
 * already within a budget.
 *
 * Never blocks the agent: always resolves 0 and never throws. Prints nothing
 * (the agent keeps its original output) when the view is unchanged, and also
 * when Loupe is down, slower than LOUPE_HOOK_TIMEOUT_MS (default 2,000 ms), the
 * payload is over the size cap, the event cannot replace output
 * (PostToolUseFailure: its `error` is already cut and can only be added to —
 * the pre-tool-use hook captures failing commands instead), or the shape is
 * unknown — each of those says why in one line on stderr.
 */
export async function postToolUseHook(env: NodeJS.ProcessEnv, io: HookIo, runtimeFlag?: string): Promise<number> {
  try {
    const maxResultBytes = positiveInt(env, "LOUPE_MAX_RESULT_BYTES", DEFAULT_MAX_RESULT_BYTES);
    const read = await readPayload(io, maxResultBytes * 2);
    if ("reason" in read) return (passThrough(io, read.reason), 0);
    const input = read.payload;
    const runtime = hookRuntimeOf(input, runtimeFlag);
    const event = stringField(input, "hook_event_name") || "PostToolUse";
    const toolName = stringField(input, "tool_name");
    const cannot = CANNOT_REPLACE[runtime];
    if (cannot !== undefined) return (passThrough(io, `${cannot} [tool=${toolName}]`), 0);
    if (event === "PostToolUseFailure")
      return (
        passThrough(
          io,
          `${event} cannot replace a tool's output [tool=${toolName}]; the pre-tool-use hook runs shell commands through loupe exec, which projects failing ones too`,
        ),
        0
      );
    // Loupe's own answers (read_result, …) are already within a budget: a second projection would omit what was asked for.
    if (isLoupeMcpTool(toolName)) return 0;
    if (!("tool_response" in input)) return (passThrough(io, `payload has no tool_response [event=${event}, tool=${toolName}]`), 0);
    const toolResponse = input["tool_response"];
    const text = extractToolText(toolResponse);
    if (text === undefined) return (passThrough(io, `unknown tool_response shape [tool=${toolName}]`), 0);
    const fromDisk = await readFromDisk(runtime, toolName, text, input, toolResponse, maxResultBytes);
    const whole = fromDisk === undefined ? await wholeParts(text, maxResultBytes) : { parts: [{ kind: "text" as const, value: fromDisk }] };
    if ("reason" in whole) return (passThrough(io, whole.reason), 0);
    const original = whole.parts.map((part) => part.value).join("");
    if (Buffer.byteLength(original) > maxResultBytes)
      return (passThrough(io, `tool output larger than LOUPE_MAX_RESULT_BYTES [limit_bytes=${String(maxResultBytes)}]`), 0);

    const { intent, model: transcriptModel } =
      contextFromPayload(input) ?? (await contextFromTranscript(runtime, stringField(input, "transcript_path"), stringField(input, "tool_use_id")));
    // The model the view is for sets its budget's margin: Codex names it in the payload, Claude Code in its transcript.
    const model = stringField(input, "model") || transcriptModel;
    const timeoutMs = positiveInt(env, "LOUPE_HOOK_TIMEOUT_MS", DEFAULT_HOOK_TIMEOUT_MS);
    const caller = projectCaller(env, maxResultBytes);
    let response: ProjectCallAnswer;
    try {
      response = await caller.project(
        {
          sessionId: stringField(input, "session_id"),
          source: env["LOUPE_SOURCE"] ?? runtime,
          intent,
          model,
          result: {
            toolUseId: stringField(input, "tool_use_id"),
            toolName,
            argsJson: input["tool_input"] === undefined ? "" : JSON.stringify(input["tool_input"]),
            isError: responseIsError(toolResponse),
            parts: whole.parts,
          },
        },
        timeoutMs,
      );
    } catch (error) {
      return (passThrough(io, `projection failed [addr=${caller.where}, timeout_ms=${String(timeoutMs)}, error=${errorMessage(error)}]`), 0);
    }
    const view = textOf(response);
    if (view === "") return (passThrough(io, `Loupe returned an empty view [tool=${toolName}]`), 0);
    if (view === original && text.persistedPath === undefined && fromDisk === undefined) return 0;

    let updated: unknown;
    let shown = view;
    let context: string | undefined;
    if (text.numbered !== undefined && response.resultId !== "") {
      const laidOut = readLayout(text.numbered.startLine, original, view, response, carriesContext(runtime), filePathOf(input));
      if (laidOut === undefined) return 0;
      ({ shown, context } = laidOut);
      updated = text.rebuild(laidOut.shown, laidOut.numLines, laidOut.startLine);
    } else {
      updated = text.rebuild(view);
    }
    io.writeOut(JSON.stringify(replaceOutputAnswer(runtime, event, updated, shown, toolName.startsWith("mcp__"), context)) + "\n");
    return 0;
  } catch (error) {
    passThrough(io, `unexpected error [error=${errorMessage(error)}]`);
    return 0;
  }
}
