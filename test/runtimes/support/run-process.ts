import { spawn } from "node:child_process";

/** How a bounded child process ended. */
export interface ProcessRun {
  /** The exit code; null when it was ended by a signal (a timeout included). */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when the run hit its timeout and its process group was killed. */
  timedOut: boolean;
  elapsedMs: number;
}

/** Options of {@link runProcess}. */
export interface RunProcessOptions {
  cwd: string;
  /** The whole environment of the child (nothing is inherited beyond it). */
  env: Record<string, string>;
  /** Text written to stdin, which is then closed. Default: stdin closed at once. */
  stdin?: string;
  /** Milliseconds before the process group gets SIGTERM, then SIGKILL 2 s later. */
  timeoutMs: number;
}

/**
 * Runs a program asynchronously in a process group of its own and collects its output. The
 * in-process scripted vendor must keep answering while the runtime runs, so this never blocks
 * (a `spawnSync` would freeze the vendor and the runtime would hang on its first request).
 * At the timeout the whole group is killed, so helpers the runtime started go too.
 */
export function runProcess(program: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessRun> {
  const started = Date.now();
  const child = spawn(program, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let timedOut = false;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.on("error", () => undefined);
  child.stdin.end(options.stdin ?? "");
  const killGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  let hardKill: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup("SIGTERM");
    hardKill = setTimeout(() => killGroup("SIGKILL"), 2_000);
  }, options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // Leftovers of the group (a shell or server the runtime started) would hold the output pipes
    // open and delay "close" until the timeout: they go when the runtime itself exits.
    child.on("exit", () => killGroup("SIGKILL"));
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      if (hardKill !== undefined) clearTimeout(hardKill);
      resolve({ exitCode, signal, stdout, stderr, timedOut, elapsedMs: Date.now() - started });
    });
  });
}
