import { spawn } from "node:child_process";
import { repoRoot } from "@loupe/testing";

/** What a run of the `loupe` command printed, and how it ended. */
export interface CommandRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly elapsedMs: number;
}

/** The `loupe` command from source: node, its flags, the entry point (as a hook command line would start it; tsx by its file, so from any folder). */
export const LOUPE_FROM_SOURCE: readonly string[] = [
  process.execPath,
  "--conditions=source",
  "--import",
  import.meta.resolve("tsx"),
  `${repoRoot()}/services/loupe/src/main.ts`,
];

/** Runs `loupe <args>` from source with `input` on stdin and `env` added. */
export function runLoupeCommand(args: readonly string[], input: string, env: Record<string, string>, cwd = repoRoot()): Promise<CommandRun> {
  const started = Date.now();
  const [program = "", ...prefix] = LOUPE_FROM_SOURCE;
  const child = spawn(program, [...prefix, ...args], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, elapsedMs: Date.now() - started }));
  });
}

/** Runs `loupe hook <event>` from source with `payload` (JSON, or a raw string) on stdin. */
export function runHook(event: "post-tool-use" | "pre-tool-use", payload: unknown, env: Record<string, string>): Promise<CommandRun> {
  return runLoupeCommand(["hook", event], typeof payload === "string" ? payload : JSON.stringify(payload), env);
}

/**
 * `loupe token create <args>` against the gateway at `address`, as the operator (`operatorToken`): the new
 * token, the last line the command prints.
 * @throws Error when the command fails (its stderr)
 */
export async function createTokenWithCli(address: string, operatorToken: string, args: readonly string[]): Promise<string> {
  const run = await runLoupeCommand(["token", "create", ...args], "", { LOUPE_ADDR: address, LOUPE_TOKEN: operatorToken });
  if (run.code !== 0) throw new Error(`loupe token create failed [code=${String(run.code)}]: ${run.stderr}`);
  return run.stdout.trim().split("\n").at(-1) ?? "";
}
