import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";
import { startLoupeProcess, type LoupeProcess } from "@loupe/testing";

/** `loupe serve` in a fresh data dir on free ports, with a ProjectionService client. */
export interface EmbeddedLoupe {
  readonly dataDir: string;
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly process: LoupeProcess;
  readonly client: GrpcClient<typeof ProjectionService>;
  /** Stops the process and removes the data dir. */
  stop(): Promise<void>;
}

/**
 * Starts embedded Loupe for a test; `env` adds variables, and may use the
 * data dir (e.g. a config file written there by `prepare`).
 */
export async function startEmbeddedLoupe(
  env: Record<string, string> = {},
  prepare?: (dataDir: string) => Promise<Record<string, string>>,
): Promise<EmbeddedLoupe> {
  const dataDir = await mkdtemp(join(tmpdir(), "loupe-e2e-"));
  const extra = prepare ? await prepare(dataDir) : {};
  // Port 0: the process binds free ports itself and logs them (no window for another bind to take them).
  const child = startLoupeProcess(["serve"], { LOUPE_DATA_DIR: dataDir, LOUPE_GRPC_PORT: "0", LOUPE_HTTP_PORT: "0", ...env, ...extra });
  const serving = JSON.parse(await child.waitFor(/loupe is serving/)) as { grpc: string; http: string };
  const grpcPort = Number(serving.grpc.split(":").pop());
  const httpPort = Number(serving.http.split(":").pop());
  const client = createGrpcClient(ProjectionService, `127.0.0.1:${String(grpcPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
  return {
    dataDir,
    grpcPort,
    httpPort,
    process: child,
    client,
    async stop() {
      client.close();
      await child.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
