// Distributed Loupe for benchmarks and tests: an archive process on the S3 server (Ceph RGW) in a bucket of
// its own, and a gateway process in front of it with Redis and NATS, as test/e2e/distributed.test.ts runs them.
import { randomUUID } from "node:crypto";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";
import { freePort, removeBucket, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess } from "@loupe/testing";

/** The two processes and a ProjectionService client of the gateway. */
export interface DistributedLoupe {
  readonly archive: LoupeProcess;
  readonly gateway: LoupeProcess;
  readonly client: GrpcClient<typeof ProjectionService>;
  /** The gateway's gRPC address (host:port). */
  readonly address: string;
  /** Each process's HTTP port (health, /metrics). */
  readonly httpPorts: { readonly archive: number; readonly gateway: number };
  /** Stops both processes and removes the bucket. */
  stop(): Promise<void>;
}

/**
 * Starts the archive and the gateway (`gatewayEnv` added to its environment; with `directPuts`, the gateway
 * writes saved results to the archive's bucket itself: LOUPE_GATEWAY_PUTS=direct); everything started is
 * stopped again if a step fails.
 */
export async function startDistributedLoupe(gatewayEnv: Record<string, string> = {}, options: { directPuts?: boolean } = {}): Promise<DistributedLoupe> {
  const run = randomUUID().slice(0, 8);
  const bucket = `loupe-bench-${run}`;
  const processes: LoupeProcess[] = [];
  let client: GrpcClient<typeof ProjectionService> | undefined;
  const stop = async (): Promise<void> => {
    client?.close();
    await Promise.all(processes.map((child) => child.stop()));
    await removeBucket(s3TestEnv(), bucket);
  };
  try {
    const archivePort = await freePort();
    const gatewayPort = await freePort();
    const httpPorts = { archive: await freePort(), gateway: await freePort() };
    const archive = startLoupeProcess(["archive"], {
      ...s3ProcessEnv(s3TestEnv(), bucket),
      LOUPE_GRPC_PORT: String(archivePort),
      LOUPE_HTTP_PORT: String(httpPorts.archive),
    });
    processes.push(archive);
    const gateway = startLoupeProcess(["gateway"], {
      LOUPE_ARCHIVE_ADDR: `127.0.0.1:${String(archivePort)}`,
      LOUPE_GRPC_PORT: String(gatewayPort),
      LOUPE_HTTP_PORT: String(httpPorts.gateway),
      LOUPE_RESULT_ID_SECRET: `bench-${run}`,
      LOUPE_REDIS_URL: "redis://127.0.0.1:6379",
      LOUPE_NATS_URL: "nats://127.0.0.1:4222",
      ...(options.directPuts === true ? { ...s3ProcessEnv(s3TestEnv(), bucket), LOUPE_GATEWAY_PUTS: "direct" } : {}),
      ...gatewayEnv,
    });
    processes.push(gateway);
    await Promise.all([archive.waitFor(/archive started/), gateway.waitFor(/gateway started/)]);
    const address = `127.0.0.1:${String(gatewayPort)}`;
    client = createGrpcClient(ProjectionService, address, { maxResultBytes: 64 * 1024 * 1024 });
    return { archive, gateway, client, address, httpPorts, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
