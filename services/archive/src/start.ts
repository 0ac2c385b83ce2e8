import { createFileArchiveStore, createLmdbArchiveStore, type ArchiveStore } from "@loupe/archive-store";
import { chooseLocalBackend, LOCAL_BACKEND_FOLDERS } from "./local-backend.js";
import { createHealthReporter, registerService, startGrpcServer } from "@loupe/grpc";
import type { ServiceHandlers } from "@loupe/grpc";
import { ArchiveService } from "@loupe/proto";
import { logCallError, startHttpServer, type Logger } from "@loupe/runtime";
import { join } from "node:path";
import { createArchiveHandlers } from "./archive-handlers.js";
import { withArchiveSpans } from "./archive-spans.js";
import type { ArchiveConfig } from "./config.js";
import { createLineIndexCache } from "./line-index-cache.js";
import { startSweeper } from "./sweep-expired.js";

export { loadConfig, DEFAULT_ARCHIVE_GRPC_PORT, DEFAULT_ARCHIVE_HTTP_PORT } from "./config.js";
export type { ArchiveConfig, ArchiveBackend } from "./config.js";

/** A running archive service. */
export interface ArchiveHandle {
  readonly grpcPort: number;
  /** 0 when the HTTP endpoint is off. */
  readonly httpPort: number;
  readonly store: ArchiveStore;
  /** The service's handlers, for a caller in this process (createInProcessArchiveClient). */
  readonly handlers: ServiceHandlers<typeof ArchiveService>;
  /** Stops serving: health NOT_SERVING, stop the sweeper, drain gRPC, close HTTP. */
  stop(): Promise<void>;
}

/** What the composition root supplies (`run.ts` for `loupe archive`, `services/loupe` for embedded mode). */
export interface ArchiveDeps {
  logger: Logger;
  /** The blob store (see {@link createArchiveStore}, which says which backend it is). */
  store: ArchiveStore & { backend?: string };
  now?: () => number;
  /** Serve GET /healthz on its own port (default true; embedded mode relies on the gateway's). */
  httpEndpoint?: boolean;
  /** Bind this gRPC address instead of host:port (a unix socket). */
  grpcAddress?: string;
  /** Serve gRPC (default true); embedded mode calls the handlers in its own process instead. */
  grpcEndpoint?: boolean;
  /** This process's metrics for GET /metrics (the composition root's telemetry). */
  metricsText?: () => Promise<string>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const BUCKET_CHECK_TIMEOUT_MS = 30_000;

/**
 * Creates the blob store the config names: files or an LMDB database under the data dir (`auto`: see
 * chooseLocalBackend), or S3. `backend` says which it is.
 */
export async function createArchiveStore(config: ArchiveConfig): Promise<ArchiveStore & { backend: "fs" | "lmdb" | "s3" }> {
  const backend = config.backend === "auto" ? await chooseLocalBackend(config.dataDir) : config.backend;
  if (backend === "fs") return Object.assign(createFileArchiveStore({ directory: join(config.dataDir, LOCAL_BACKEND_FOLDERS.fs) }), { backend });
  if (backend === "lmdb") return Object.assign(createLmdbArchiveStore({ directory: join(config.dataDir, LOCAL_BACKEND_FOLDERS.lmdb) }), { backend });
  // The AWS SDK loads only for an archive on S3.
  const { createS3ArchiveStore } = await import("@loupe/archive-store/s3");
  const store = createS3ArchiveStore({
    region: config.s3.region,
    bucket: config.s3.bucket,
    forcePathStyle: config.s3.forcePathStyle,
    requestTimeoutMs: config.s3.requestTimeoutMs,
    createBucketIfMissing: true,
    ...(config.s3.endpoint === undefined ? {} : { endpoint: config.s3.endpoint }),
  });
  // Create the bucket before serving, so the first put does not pay for it inside the gateway's time budget.
  // When S3 is down the archive still starts: puts fail until it is back, and the gateway answers fail-open.
  await store.ensureBucket({ signal: AbortSignal.timeout(BUCKET_CHECK_TIMEOUT_MS) }).catch(() => undefined);
  return Object.assign(store, { backend });
}

/** Starts the ArchiveService (gRPC, with Health) and GET /healthz. */
export async function startArchive(config: ArchiveConfig, deps: ArchiveDeps): Promise<ArchiveHandle> {
  const { store } = deps;
  const health = createHealthReporter([ArchiveService.typeName]);
  const handlers = withArchiveSpans(
    createArchiveHandlers({
      store,
      indexCache: createLineIndexCache(),
      maxResultBytes: config.maxResultBytes,
      inlineMaxBytes: config.inlineMaxBytes,
      retentionMsFor: (tenant) => (config.retentionDaysByTenant[tenant] ?? config.retentionDays) * DAY_MS,
      now: deps.now ?? Date.now,
      internalToken: config.internalToken,
    }),
  );
  const grpc =
    deps.grpcEndpoint === false
      ? undefined
      : await startGrpcServer({
          host: config.grpcHost,
          port: config.grpcPort,
          ...(deps.grpcAddress === undefined ? {} : { address: deps.grpcAddress }),
          maxResultBytes: config.maxResultBytes,
          services: [health.registration, registerService(ArchiveService, handlers)],
          onError: (error, method) => logCallError(deps.logger, "archive call failed", error, { method }),
        });
  // Expiry is enforced by this sweeper, not by an S3 lifecycle rule: a lifecycle rule expires objects by
  // their own age, but a content-addressed blob is shared by results of different ages (docs/configuration.md).
  const sweeper =
    config.sweepIntervalMs === 0
      ? undefined
      : startSweeper({
          store,
          intervalMs: config.sweepIntervalMs,
          now: deps.now ?? Date.now,
          onSweep: (outcome, error) => {
            if (error !== undefined) deps.logger.warn("sweep of expired results failed", { error });
            else if (outcome && outcome.resultsDeleted + outcome.entriesRemoved > 0) deps.logger.info("swept expired results", { ...outcome });
          },
        });
  const http =
    deps.httpEndpoint === false
      ? undefined
      : await startHttpServer({
          host: config.httpHost,
          port: config.httpPort,
          isHealthy: () => health.isServing(),
          ...(deps.metricsText === undefined ? {} : { metricsText: deps.metricsText }),
        });
  // A unix socket has no port (grpc-js reports 1 for it): name the socket instead.
  const listening = grpc === undefined ? { grpc: "in-process" } : deps.grpcAddress === undefined ? { grpcPort: grpc.port } : { grpcAddress: deps.grpcAddress };
  deps.logger.info("archive started", { ...listening, httpPort: http?.port, backend: deps.store.backend ?? config.backend });
  return {
    grpcPort: grpc?.port ?? 0,
    httpPort: http?.port ?? 0,
    store,
    handlers,
    async stop() {
      health.shutdown();
      await sweeper?.stop();
      await grpc?.shutdown();
      await http?.close();
    },
  };
}
