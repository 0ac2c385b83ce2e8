import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";

/** A server process of the chaos run's own, on its own port and data dir: stop and start again. */
export interface OwnServer {
  readonly port: number;
  start(): Promise<void>;
  /** SIGKILL (a crash) or SIGTERM (a stop); resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

function which(name: string): string {
  for (const dir of (process.env["PATH"] ?? "").split(":").concat(["/usr/sbin", "/usr/bin"])) if (existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`${name} is not installed (scripts/servers/ensure-servers.sh installs it)`);
}

async function waitForPort(port: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${String(port)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function ownServer(program: string, args: () => readonly string[], port: number, dir: string): OwnServer {
  let child: ChildProcess | undefined;
  return {
    port,
    async start() {
      await mkdir(dir, { recursive: true });
      child = spawn(which(program), args(), { stdio: "ignore", cwd: dir });
      await waitForPort(port);
    },
    async stop(signal = "SIGKILL") {
      const running = child;
      if (running === undefined || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill(signal);
      await exited;
    },
  };
}

/** NATS with JetStream on file storage under `dir`. */
export function ownNats(port: number, dir: string): OwnServer {
  return ownServer("nats-server", () => ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], port, dir);
}

/** Redis with append-only persistence, fsync on every write, under `dir`. */
export function ownRedis(port: number, dir: string): OwnServer {
  return ownServer(
    "redis-server",
    () => ["--bind", "127.0.0.1", "--port", String(port), "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
    port,
    dir,
  );
}
