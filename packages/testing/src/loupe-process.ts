import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./repo-root.js";

/** A `loupe` command running as a child process, with its output kept for assertions. */
export interface LoupeProcess extends AsyncDisposable {
  readonly child: ChildProcess;
  /** Resolves with the exit code when the process ends by itself or is stopped. */
  readonly exited: Promise<number | null>;
  /** Every line written so far (stdout and stderr). */
  readonly lines: string[];
  /** Resolves with the first line (past or future) matching `pattern`; rejects after `timeoutMs` or on exit. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code once the process ends. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Node flags for every Loupe process the tests and benchmarks start, from
 * LOUPE_TEST_NODE_FLAGS (whitespace-separated), e.g. `--cpu-prof
 * --cpu-prof-dir=<folder>` to profile `loupe serve` under a bench's load
 * (node refuses --cpu-prof in NODE_OPTIONS).
 */
function testNodeFlags(env: NodeJS.ProcessEnv): string[] {
  return (env["LOUPE_TEST_NODE_FLAGS"] ?? "").split(/\s+/).filter((flag) => flag !== "");
}

// Children still running: killed when this process exits, so a test whose hooks failed before stopping them
// (a `before` that threw, an `after` that threw before its `stop()`) leaves no server behind to serve, or
// consume events of, the tests that run after it.
const running = new Set<ChildProcess>();
let reaping = false;

function reapOnExit(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
  if (reaping) return;
  reaping = true;
  process.once("exit", () => {
    for (const left of running) left.kill("SIGKILL");
  });
}

/**
 * Starts `loupe <args>` from source (tsx, the `source` condition) with `env`
 * added to this process's environment, and the flags of LOUPE_TEST_NODE_FLAGS
 * (from `env`, else this process's).
 */
export function startLoupeProcess(args: readonly string[], env: Record<string, string>): LoupeProcess {
  const root = repoRoot();
  const childEnv = { ...process.env, ...env };
  const child = spawn(
    process.execPath,
    [...testNodeFlags(childEnv), "--conditions=source", "--import", "tsx", join(root, "services/loupe/src/main.ts"), ...args],
    {
      cwd: root,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  reapOnExit(child);
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      exited = true;
      resolve(code);
    }),
  );
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buffer += chunk;
      for (let index = buffer.indexOf("\n"); index !== -1; index = buffer.indexOf("\n")) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 1);
        lines.push(line);
        for (const listener of listeners) listener(line);
      }
    });
  }
  const waitFor = (pattern: RegExp, timeoutMs = 30_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const found = lines.find((line) => pattern.test(line));
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(() => finish(new Error(`timed out waiting for ${String(pattern)}; output:\n${lines.slice(-20).join("\n")}`)), timeoutMs);
      const listener = (line: string): void => {
        if (pattern.test(line)) finish(undefined, line);
      };
      const onExit = (): void => finish(new Error(`process exited before ${String(pattern)}; output:\n${lines.slice(-20).join("\n")}`));
      function finish(error?: Error, line?: string): void {
        clearTimeout(timer);
        listeners.delete(listener);
        child.off("exit", onExit);
        if (error) reject(error);
        else resolve(line ?? "");
      }
      listeners.add(listener);
      child.once("exit", onExit);
    });
  const stop = async (signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> => {
    if (!exited) child.kill(signal);
    return exit;
  };
  return { child, exited: exit, lines, waitFor, stop, [Symbol.asyncDispose]: async () => void (await stop("SIGKILL")) };
}
