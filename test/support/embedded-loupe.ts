import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";
import { freePort, startLoupeProcess, type LoupeProcess } from "@loupe/testing";

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
export async function startEmbeddedLoupe(env: Record<string, string> = {}, prepare?: (dataDir: string) => Promise<Record<string, string>>): Promise<EmbeddedLoupe> {
  const dataDir = await mkdtemp(join(tmpdir(), "loupe-e2e-"));
  const grpcPort = await freePort();
  const httpPort = await freePort();
  const extra = prepare ? await prepare(dataDir) : {};
  const child = startLoupeProcess(["serve"], { LOUPE_DATA_DIR: dataDir, LOUPE_GRPC_PORT: String(grpcPort), LOUPE_HTTP_PORT: String(httpPort), ...env, ...extra });
  await child.waitFor(/loupe is serving/);
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
