import { rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { startArchive } from "@loupe/archive";
import { createMemoryBus } from "@loupe/events";
import { createFileStateStore } from "@loupe/state-store";
import { INSECURE_DEFAULT_SECRET, startGateway } from "@loupe/gateway";
import { startNoteWorker } from "@loupe/note-worker";
import { createLogger, lockDirectory, type Logger } from "@loupe/runtime";
import { loadOrCreateLocalSecret } from "./local-secret.js";
import type { ServeConfig } from "./serve-config.js";

// sun_path holds 108 bytes on Linux (104 on macOS): leave room.
const MAX_SOCKET_PATH = 100;

/** Embedded Loupe: the three services in one process. */
export interface EmbeddedLoupe {
  readonly grpcPort: number;
  readonly httpPort: number;
  stop(): Promise<void>;
}

/**
 * Starts the gateway, archive and note-worker in this process on the
 * filesystem archive and the embedded bus, all persisted under the data dir,
 * so a restart keeps everything that was accepted.
 */
export async function startEmbedded(config: ServeConfig, logger: Logger = createLogger({ service: "loupe", level: config.gateway.logLevel })): Promise<EmbeddedLoupe> {
  const unlock = await lockDirectory(config.dataDir, { fileName: "loupe.lock", label: "data dir" });
  // The archive serves only this process: on a unix socket under the data dir, never on a TCP port another
  // bind could take (or a neighbour could reach); a data dir too deep for a socket path falls back to loopback.
  const socket = resolve(config.dataDir, "archive.sock");
  const useSocket = socket.length < MAX_SOCKET_PATH;
  if (useSocket) await rm(socket, { force: true });
  const archive = await startArchive(config.archive, { logger: logger.child({ component: "archive" }), httpEndpoint: false, ...(useSocket ? { grpcAddress: `unix:${socket}` } : {}) });
  const archiveAddress = useSocket ? `unix:${socket}` : `127.0.0.1:${String(archive.grpcPort)}`;
  const bus = await createMemoryBus({ directory: join(config.dataDir, "events") });
  const state = await createFileStateStore({ directory: join(config.dataDir, "state") });
  const noteWorker = await startNoteWorker({ ...config.noteWorker, archiveAddress }, { logger: logger.child({ component: "note-worker" }), bus, state, endpoints: false });
  const secret = config.gateway.resultIdSecret === INSECURE_DEFAULT_SECRET ? await loadOrCreateLocalSecret(config.dataDir) : config.gateway.resultIdSecret;
  const gateway = await startGateway(
    { ...config.gateway, archiveAddress, resultIdSecret: secret },
    { logger: logger.child({ component: "gateway" }), state, bus },
  );
  logger.info("loupe is serving (embedded)", { grpc: `${config.gateway.grpcHost}:${String(gateway.grpcPort)}`, http: `${config.gateway.httpHost}:${String(gateway.httpPort)}`, dataDir: config.dataDir });
  return {
    grpcPort: gateway.grpcPort,
    httpPort: gateway.httpPort,
    async stop() {
      await gateway.stop();
      await noteWorker.stop();
      await bus.close();
      await state.close();
      await archive.stop();
      await unlock();
    },
  };
}
