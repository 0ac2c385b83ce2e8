import { createReadStream } from "node:fs";
import { open, readFile, rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { AppError } from "@loupe/errors";
import { DEFAULT_MAX_RESULT_BYTES } from "@loupe/grpc/limits";
import { HOOK_RUNTIMES } from "../hook/hook-runtime.js";
import { contextFromTranscript } from "../hook/transcript-intent.js";
import { projectCaller } from "../project-call/project-call.js";
import { parseFlags } from "../parse-flags.js";
import { captureOutput } from "./capture-output.js";
import { runCaptured } from "./run-captured.js";

/** Default deadline of the Project call of `loupe exec`, in ms (LOUPE_EXEC_TIMEOUT_MS). */
export const DEFAULT_EXEC_TIMEOUT_MS = 5000;

/** Reads a captured output file within `limitBytes` (head and tail when it is larger). */
async function readCaptured(path: string, limitBytes: number): Promise<string> {
  const captured = captureOutput(limitBytes);
  const file = await open(path, "r");
  try {
    for await (const chunk of file.createReadStream()) captured.push(chunk as Buffer);
  } finally {
    await file.close();
  }
  return captured.text();
}

interface Report {
  command: string;
  exitCode: number;
  durationMs: number;
  outputFile: string;
}

/** Projects a finished command's output and prints the view; prints the output as it is when Loupe cannot be reached. */
interface ReportFlags {
  session?: string | undefined;
  source?: string | undefined;
  tool?: string | undefined;
  addr?: string | undefined;
  /** The runtime's transcript and the call's id in it (the pre-tool hook passes them): the intent is read there. */
  transcript?: string | undefined;
  /** A file holding the call's intent and model (what a plugin passed the pre-tool hook): read, then removed. */
  contextFile?: string | undefined;
  /** What the agent is looking for (`--intent`), instead of what a transcript or context file says. */
  intent?: string | undefined;
  /** The model that reads the view (`--model`), instead of what a transcript or context file says. */
  model?: string | undefined;
  toolUseId?: string | undefined;
  runtime?: string | undefined;
}

async function report(run: Report, flags: ReportFlags, env: NodeJS.ProcessEnv): Promise<void> {
  const maxResultBytes = Number(env["LOUPE_MAX_RESULT_BYTES"] ?? "") || DEFAULT_MAX_RESULT_BYTES;
  const output = await readCaptured(run.outputFile, maxResultBytes);
  const caller = projectCaller(env, maxResultBytes, flags.addr);
  const runtime = HOOK_RUNTIMES.find((known) => known === flags.runtime) ?? "claude-code";
  const found = (await contextFromFile(flags.contextFile)) ?? (await contextFromTranscript(runtime, flags.transcript ?? "", flags.toolUseId ?? ""));
  const intent = flags.intent ?? found.intent;
  const model = flags.model ?? found.model;
  try {
    const response = await caller.project(
      {
        sessionId: flags.session ?? env["LOUPE_SESSION_ID"] ?? "",
        source: flags.source ?? env["LOUPE_SOURCE"] ?? "loupe-exec",
        intent,
        model,
        result: {
          toolName: flags.tool ?? "Bash",
          argsJson: JSON.stringify({ command: run.command }),
          isError: run.exitCode !== 0,
          exitCode: run.exitCode,
          // A shell that measured in whole seconds gives 0 for a quick command: unknown, not "0 ms".
          ...(run.durationMs > 0 ? { durationMs: run.durationMs } : {}),
          parts: [{ kind: "text", value: output }],
        },
      },
      Number(env["LOUPE_EXEC_TIMEOUT_MS"] ?? "") || DEFAULT_EXEC_TIMEOUT_MS,
    );
    const view = response.parts.map((part) => (part.kind === "text" ? part.value : "")).join("");
    process.stdout.write(view);
  } catch (error) {
    process.stderr.write(
      `loupe exec: projection failed [addr=${caller.where}, error=${error instanceof Error ? error.message : String(error)}]; the output follows as it is\n`,
    );
    await pipeline(createReadStream(run.outputFile), process.stdout, { end: false });
  }
}

/** The intent and model the pre-tool hook wrote for this call (see --context-file), the file removed; undefined when there is none. */
async function contextFromFile(path: string | undefined): Promise<{ intent: string; model: string } | undefined> {
  if (path === undefined) return undefined;
  try {
    const { intent, model } = JSON.parse(await readFile(path, "utf8")) as { intent?: unknown; model?: unknown };
    return { intent: typeof intent === "string" ? intent : "", model: typeof model === "string" ? model : "" };
  } catch {
    // Gone or unreadable: the view is made without it.
    return undefined;
  } finally {
    await rm(path, { force: true }).catch(() => undefined);
  }
}

/**
 * The duration a shell reported: `--duration-ms`, else the difference of two readings of its
 * SECONDS (`--start-seconds`, `--end-seconds`), in ms; 0 (unknown) when neither is a whole number
 * of 0 or more — a shell without SECONDS (sh) passes empty values.
 */
export function reportedDurationMs(durationMs: string | undefined, startSeconds: string | undefined, endSeconds: string | undefined): number {
  const whole = (value: string | undefined): number | undefined => (value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined);
  const direct = whole(durationMs);
  if (direct !== undefined) return direct;
  const start = whole(startSeconds);
  const end = whole(endSeconds);
  return start !== undefined && end !== undefined && end >= start ? (end - start) * 1000 : 0;
}

/**
 * `loupe exec [--session ID] [--source APP] [--tool NAME] [--intent TEXT] [--model NAME] [--addr HOST:PORT] -- COMMAND…`:
 * runs the command (one argument: a shell command for $SHELL -c, default bash; more: a program
 * and its arguments) with stdout and stderr as one stream, saves the whole output in Loupe
 * (Project, with the command, its exit code and duration) and prints Loupe's first view instead
 * of the output, then exits with the command's own exit code. When Loupe cannot be reached the
 * output is printed as it is. Agent hooks rewrite shell commands into this form so that the
 * output is captured before the runtime cuts it.
 *
 * `loupe exec --report FILE --exit-code N [--duration-ms N | --start-seconds S --end-seconds E] [--runtime R --transcript PATH
 * --tool-use-id ID] [--context-file FILE] --command CMD …` projects an output
 * a shell already captured into FILE (the form the pre-tool hook uses inside the agent's own shell,
 * so `cd` and `export` keep working) and exits with N.
 */
export async function execCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const dashes = args.indexOf("--");
  const flags = parseFlags(
    dashes < 0 ? args : args.slice(0, dashes),
    [
      "session",
      "source",
      "tool",
      "addr",
      "report",
      "exit-code",
      "duration-ms",
      "start-seconds",
      "end-seconds",
      "command",
      "transcript",
      "tool-use-id",
      "runtime",
      "context-file",
      "intent",
      "model",
    ],
    [],
  );
  const options: ReportFlags = {
    session: flags.values.session,
    source: flags.values.source,
    tool: flags.values.tool,
    addr: flags.values.addr,
    transcript: flags.values.transcript,
    toolUseId: flags.values["tool-use-id"],
    runtime: flags.values.runtime,
    contextFile: flags.values["context-file"],
    intent: flags.values.intent,
    model: flags.values.model,
  };
  if (flags.values.report !== undefined) {
    const exitCode = Number(flags.values["exit-code"]);
    if (!Number.isInteger(exitCode) || exitCode < 0 || exitCode > 255)
      throw new AppError("invalid_argument", `--exit-code must be 0 to 255 [exit_code=${String(flags.values["exit-code"])}]`);
    const durationMs = reportedDurationMs(flags.values["duration-ms"], flags.values["start-seconds"], flags.values["end-seconds"]);
    await report({ command: flags.values.command ?? "", exitCode, durationMs, outputFile: flags.values.report }, options, env);
    return exitCode;
  }
  const command = dashes < 0 ? [] : args.slice(dashes + 1);
  if (command.length === 0) throw new AppError("invalid_argument", "usage: loupe exec [--session ID] [--source APP] [--tool NAME] -- COMMAND…");
  const run = await runCaptured(command, env["SHELL"]?.trim() || "bash");
  try {
    await report({ command: command.join(" "), exitCode: run.exitCode, durationMs: run.durationMs, outputFile: run.outputFile }, options, env);
  } finally {
    run.dispose();
  }
  return run.exitCode;
}
