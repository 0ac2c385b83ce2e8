import type { ProjectorInput } from "../projectors/projector.js";

const MAX_COMMAND_CHARS = 200;
const COMMAND_FIELDS = ["command", "cmd", "script"] as const;

// Control characters would break the one-line header.
// eslint-disable-next-line no-control-regex -- matching them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

// At most `max` code points (never half a surrogate pair), with " …" when cut or when more followed.
function clip(text: string, max: number, more: boolean): string {
  const characters = Array.from(text.replace(CONTROL, " ").trim());
  const cut = characters.length > max;
  const shown = cut ? characters.slice(0, max).join("").trimEnd() : characters.join("");
  return cut || more ? `${shown} …` : shown;
}

/**
 * The command a call ran, from its arguments (`command`, `cmd` or `script`;
 * an array of words is joined with spaces): its first non-empty line, control
 * characters replaced by spaces, cut to about 200 characters (never inside a
 * surrogate pair) with "…" marking what was cut. "" when the args name none.
 */
export function commandFromArgs(args: Readonly<Record<string, unknown>>): string {
  for (const field of COMMAND_FIELDS) {
    const value = args[field];
    const text = typeof value === "string" ? value : Array.isArray(value) && value.every((word) => typeof word === "string") ? value.join(" ") : "";
    const lines = text.split("\n").map((line) => line.trim());
    const first = lines.findIndex((line) => line !== "");
    if (first === -1) continue;
    return clip(
      lines[first] ?? "",
      MAX_COMMAND_CHARS,
      lines.slice(first + 1).some((rest) => rest !== ""),
    );
  }
  return "";
}

/**
 * A duration in milliseconds as people read it: "850 ms", "3.2 s",
 * "2 min 5 s", "1 h 3 min". Deterministic (no locale).
 */
export function formatDuration(durationMs: number): string {
  const ms = Math.max(0, Math.round(durationMs));
  if (ms < 1000) return `${String(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${String(Math.floor(seconds / 60))} min ${String(seconds % 60)} s`;
  return `${String(Math.floor(seconds / 3600))} h ${String(Math.floor((seconds % 3600) / 60))} min`;
}

/**
 * The notice line that opens a command's view: "[loupe] $ pytest -x · exit 1
 * (failed) · timed out · 3.2 s", with only the parts that are known. The tool
 * name stands in for the command when the args name none. A failure never
 * reads as a success: a non-zero exit says "(failed)", and `is_error` with
 * exit 0 or no exit status says "failed (is_error)".
 */
export function commandHeader(input: Pick<ProjectorInput, "toolName" | "args" | "isError" | "exitCode" | "timedOut" | "durationMs">): string {
  const command = commandFromArgs(input.args);
  const parts = [command !== "" ? `$ ${command}` : clip(input.toolName, MAX_COMMAND_CHARS, false) || "command"];
  const failedExit = input.exitCode !== undefined && input.exitCode !== 0;
  if (input.exitCode !== undefined) parts.push(failedExit ? `exit ${String(input.exitCode)} (failed)` : `exit ${String(input.exitCode)}`);
  if (input.isError && !failedExit) parts.push("failed (is_error)");
  if (input.timedOut) parts.push("timed out");
  if (input.durationMs !== undefined && Number.isFinite(input.durationMs)) parts.push(formatDuration(input.durationMs));
  return `[loupe] ${parts.join(" · ")}`;
}
