import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { AppError } from "@loupe/errors";

/** A `loupe serve` child process in a temporary data dir. */
export interface LoupeServer {
  /** host:port of its gRPC port. */
  readonly address: string;
  /** Stops the process and removes the data dir. */
  stop(): Promise<void>;
}

/** Options of {@link startLoupeServer}. */
export interface StartLoupeServerOptions {
  /** The program and arguments that run `loupe serve` (e.g. node, its flags, main.js, "serve"). */
  readonly command: readonly [string, ...string[]];
  /** Environment of the child; LOUPE_DATA_DIR and the ports are set on top. */
  readonly env?: NodeJS.ProcessEnv;
  /** How long to wait for "loupe is serving"; default 60,000 ms. */
  readonly timeoutMs?: number;
}

/**
 * Starts embedded Loupe as a child process on free ports (port 0: the server
 * binds and logs them) with a fresh temporary data dir, and resolves once it
 * logs that it is serving.
 *
 * @throws AppError `unavailable` when it exits or does not serve in time
 */
export async function startLoupeServer(options: StartLoupeServerOptions): Promise<LoupeServer> {
  const dataDir = await mkdtemp(join(tmpdir(), "loupe-eval-"));
  const [program, ...args] = options.command;
  const child = spawn(program, args, {
    env: {
      ...(options.env ?? process.env),
      LOUPE_DATA_DIR: dataDir,
      LOUPE_GRPC_PORT: "0",
      LOUPE_HTTP_PORT: "0",
      LOUPE_GRPC_HOST: "127.0.0.1",
      LOUPE_HTTP_HOST: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  const recent: string[] = [];
  try {
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new AppError("unavailable", `loupe serve did not start in time [output=${recent.join(" | ")}]`)),
        options.timeoutMs ?? 60_000,
      );
      child.once("exit", (code) =>
        reject(new AppError("unavailable", `loupe serve exited before serving [code=${String(code)}, output=${recent.join(" | ")}]`)),
      );
      child.once("error", (error) => reject(new AppError("unavailable", `loupe serve could not start [reason=${error.message}]`, { cause: error })));
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on("line", (line) => {
          recent.push(line);
          if (recent.length > 10) recent.shift();
          if (!line.includes("loupe is serving")) return;
          clearTimeout(timer);
          const grpc = /"grpc":"([^"]+)"/.exec(line)?.[1];
          if (grpc === undefined) reject(new AppError("unavailable", `loupe serve did not log its address [line=${line}]`));
          else resolve(grpc);
        });
      }
    });
    return { address, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
