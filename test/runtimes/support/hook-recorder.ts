/**
 * A hook command for the runtime probes, run as
 * `node --import tsx hook-recorder.ts <log file> [answers file]`. It appends what the runtime
 * wrote on stdin (parsed when it is JSON) to the log as one JSON line, then answers from the
 * answers file: a JSON object whose keys are `<event>`, `<event>:<tool>` or
 * `<event>:<tool>:<marker>` (the event is the payload's `hook_event_name`, the tool its
 * `tool_name`, `*` matches any; a marker matches when the JSON of `tool_input` contains it; the
 * first matching key wins) and whose values are `{ stdout?: string | object, stderr?: string,
 * exitCode?: number }`.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";

interface HookAnswer {
  stdout?: unknown;
  stderr?: string;
  exitCode?: number;
}

const [log, answersFile] = process.argv.slice(2);

function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => (text += chunk));
    process.stdin.on("end", () => resolve(text));
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const input = await readStdin();
const payload = parse(input);
const fields = typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : {};
const event = typeof fields["hook_event_name"] === "string" ? fields["hook_event_name"] : "";
const tool = typeof fields["tool_name"] === "string" ? fields["tool_name"] : "";
if (log !== undefined)
  appendFileSync(log, `${JSON.stringify({ event, tool, argv: process.argv.slice(4), env: { LOUPE_HOOK_TAG: process.env["LOUPE_HOOK_TAG"] }, payload })}\n`);

const answers = answersFile !== undefined && existsSync(answersFile) ? (JSON.parse(readFileSync(answersFile, "utf8")) as Record<string, HookAnswer>) : {};
const toolInput = JSON.stringify(fields["tool_input"] ?? fields["args"] ?? "");
const matches = (key: string): boolean => {
  const [wantEvent = "", wantTool = "*", ...marker] = key.split(":");
  const markerText = marker.join(":");
  return (wantEvent === "*" || wantEvent === event) && (wantTool === "*" || wantTool === tool) && (markerText === "" || toolInput.includes(markerText));
};
const key = Object.keys(answers).find(matches);
const answer = key === undefined ? undefined : answers[key];
if (answer !== undefined) {
  if (answer.stdout !== undefined) process.stdout.write(typeof answer.stdout === "string" ? answer.stdout : JSON.stringify(answer.stdout));
  if (answer.stderr !== undefined) process.stderr.write(answer.stderr);
  process.exitCode = answer.exitCode ?? 0;
}
