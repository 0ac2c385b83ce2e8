import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How a command ended and where its output is. */
export interface CapturedRun {
  /** The command's exit code; 128 + the signal's number when a signal ended it. */
  exitCode: number;
  durationMs: number;
  /** A file holding stdout and stderr as one stream, in the order they were written. */
  outputFile: string;
  /** Removes the output file. */
  dispose(): void;
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13, SIGALRM: 14, SIGUSR1: 10, SIGUSR2: 12 };

/**
 * Runs a command with stdout and stderr written to one file (one descriptor for both, so their
 * lines keep the order the program wrote them in), stdin inherited. One argument is a shell
 * command run with `shell -c`; more are a program and its arguments. SIGINT and SIGTERM sent to
 * this process are passed on to the command.
 */
export async function runCaptured(command: readonly string[], shell: string): Promise<CapturedRun> {
  const folder = mkdtempSync(join(tmpdir(), "loupe-exec-"));
  const outputFile = join(folder, "output");
  const fd = openSync(outputFile, "w");
  const [program, args] = command.length === 1 ? [shell, ["-c", command[0] ?? ""]] : [command[0] ?? "", command.slice(1)];
  const started = Date.now();
  const child = spawn(program, args, { stdio: ["inherit", fd, fd] });
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const onInt = forward("SIGINT");
  const onTerm = forward("SIGTERM");
  process.on("SIGINT", onInt).on("SIGTERM", onTerm);
  try {
    const exitCode = await new Promise<number>((resolve) => {
      child.once("error", () => resolve(127));
      child.once("exit", (code, signal) => resolve(code ?? 128 + (signal === null ? 0 : (SIGNALS[signal] ?? 0))));
    });
    return { exitCode, durationMs: Date.now() - started, outputFile, dispose: () => rmSync(folder, { recursive: true, force: true }) };
  } finally {
    process.off("SIGINT", onInt).off("SIGTERM", onTerm);
    closeSync(fd);
  }
}
