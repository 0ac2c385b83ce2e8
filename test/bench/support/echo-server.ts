// A bare grpc-js service that answers each call with the bytes it was sent:
// the floor of moving a tool result over gRPC at all.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import { messageLimitOptions } from "@loupe/grpc";

const MAX_RESULT_BYTES = 64 * 1024 * 1024;
const ECHO_PATH = "/bench.Echo/Echo";
const same = (bytes: Buffer): Buffer => bytes;

const ECHO_SERVICE: grpc.ServiceDefinition = {
  echo: {
    path: ECHO_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: same,
    requestDeserialize: same,
    responseSerialize: same,
    responseDeserialize: same,
    originalName: "Echo",
  },
};

/** A running echo server. */
export interface EchoServer {
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Starts the echo service on 127.0.0.1 (port 0 picks a free one), with Loupe's message limits; with
 * `beforeAnswer`, each call answers once it has resolved (a failure answers with the error).
 */
export async function startEchoServer(port = 0, beforeAnswer?: (bytes: Buffer) => Promise<void>): Promise<EchoServer> {
  const server = new grpc.Server(messageLimitOptions(MAX_RESULT_BYTES));
  server.addService(ECHO_SERVICE, {
    echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      if (beforeAnswer === undefined) callback(null, call.request);
      else
        beforeAnswer(call.request).then(
          () => callback(null, call.request),
          (error: unknown) => callback(error as grpc.ServiceError),
        );
    },
  });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${String(port)}`, grpc.ServerCredentials.createInsecure(), (error, actual) => (error ? reject(error) : resolve(actual))),
  );
  return { port: bound, stop: () => new Promise((resolve) => server.tryShutdown(() => resolve())) };
}

/** A client of the echo service. */
export interface EchoClient {
  echo(bytes: Buffer): Promise<Buffer>;
  close(): void;
}

/** Connects to the echo service at `address` (host:port). */
export function createEchoClient(address: string): EchoClient {
  const channel = new grpc.Client(address, grpc.credentials.createInsecure(), messageLimitOptions(MAX_RESULT_BYTES));
  return {
    echo: (bytes) =>
      new Promise((resolve, reject) => {
        channel.makeUnaryRequest(ECHO_PATH, same, same, bytes, (error, answer) =>
          error || answer === undefined ? reject(error ?? new Error("no answer")) : resolve(answer),
        );
      }),
    close: () => channel.close(),
  };
}

/** The echo service in a child process of its own. */
export interface EchoProcess {
  readonly port: number;
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Spawns echo-process.ts the way `loupe serve` is spawned (node, the `source` condition, tsx); `env` adds
 * variables (LOUPE_BENCH_ECHO_STORE=1 with an archive's environment: each call also stored, see echo-process.ts).
 */
export async function startEchoProcess(env: Record<string, string> = {}): Promise<EchoProcess> {
  const child = spawn(process.execPath, ["--conditions=source", "--import", "tsx", fileURLToPath(new URL("echo-process.ts", import.meta.url))], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let buffer = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        buffer += chunk;
        const match = /\{"echo":(\d+)\}/.exec(buffer);
        if (match) resolve(Number(match[1]));
      });
      void exited.then(() => reject(new Error("the echo process exited before serving")));
      setTimeout(() => reject(new Error("the echo process did not start in 30 s")), 30_000).unref();
    });
    if (child.pid === undefined) throw new Error("the echo process has no pid");
    return { port, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
