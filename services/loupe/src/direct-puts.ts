import { createArchiveStore, loadConfig as loadArchiveConfig, startArchive } from "@loupe/archive";
import { createInProcessArchiveClient } from "@loupe/archive-client";
import { AppError } from "@loupe/errors";
import type { DirectPuts } from "@loupe/gateway/run";
import { createLogger } from "@loupe/runtime";

/**
 * The archive's Put in the gateway's process (LOUPE_GATEWAY_PUTS=direct): the archive's configuration read
 * from the same environment (LOUPE_ARCHIVE_BACKEND=s3 and LOUPE_S3_*, the retention, LOUPE_MAX_RESULT_BYTES,
 * LOUPE_INTERNAL_TOKEN), its handlers over a store of their own on the archive's bucket — no server and no
 * sweeper: the archive service keeps reads, searches, deletes, turns and expiry. Saves from both processes
 * go to the same objects as saves from two archive replicas do.
 * @throws AppError `invalid_argument` when the archive's backend is not S3 (a store of this process's own would
 *   not be the archive's), or its settings are invalid
 */
export async function startDirectPuts(env: NodeJS.ProcessEnv): Promise<DirectPuts> {
  const config = { ...loadArchiveConfig(env), sweepIntervalMs: 0 };
  if (config.backend !== "s3") {
    throw new AppError(
      "invalid_argument",
      "LOUPE_GATEWAY_PUTS=direct writes to the archive's bucket: give the gateway LOUPE_ARCHIVE_BACKEND=s3 and the archive's LOUPE_S3_* settings",
    );
  }
  const store = await createArchiveStore(config);
  const logger = createLogger({ service: "gateway", level: config.logLevel }).child({ component: "direct-puts" });
  const archive = await startArchive(config, { logger, store, grpcEndpoint: false, httpEndpoint: false });
  const client = createInProcessArchiveClient(archive.handlers, config.internalToken);
  return {
    put: (tenant, header, bytes, options) => client.put(tenant, header, bytes, options),
    async close() {
      client.close();
      await archive.stop();
      await store.close?.();
    },
  };
}
