import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createArchiveStore, startArchive } from "@loupe/archive";
import { createInProcessArchiveClient } from "@loupe/archive-client";
import { createMemoryBus } from "@loupe/events";
import { createLocalLedger } from "@loupe/ledger";
import { createFileStateStore } from "@loupe/state-store";
import { INSECURE_DEFAULT_SECRET, startGateway } from "@loupe/gateway";
import { gatewayConfigDeps } from "@loupe/gateway/run";
import { createTurnReader, startNoteWorker } from "@loupe/note-worker";
import { noteWorkerSummarizers } from "@loupe/note-worker/run";
import { createLogger, lockDirectory, type Logger } from "@loupe/runtime";
import { loadOrCreateLocalSecret } from "./local-secret.js";
import type { ServeConfig } from "./serve-config.js";

/** Embedded Loupe: the three services in one process. */
export interface EmbeddedLoupe {
  readonly grpcPort: number;
  readonly httpPort: number;
  stop(): Promise<void>;
}

/**
 * Starts the gateway, archive and note-worker in this process on the
 * filesystem archive and the embedded bus, all persisted under the data dir,
 * so a restart keeps everything that was accepted. The composition root of
 * embedded mode: it builds every adapter, and closes them after the services.
 */
export async function startEmbedded(
  config: ServeConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger = createLogger({ service: "loupe", level: config.gateway.logLevel }),
  /** This process's metrics, served at the gateway's GET /metrics. */
  metricsText?: () => Promise<string>,
): Promise<EmbeddedLoupe> {
  const unlock = await lockDirectory(config.dataDir, { fileName: "loupe.lock", label: "data dir" });
  const store = await createArchiveStore(config.archive);
  // The archive serves only this process, which calls its handlers directly: no port, socket or copy of the bytes.
  // Its callers still prove they are Loupe, with a token only this process knows.
  const internalToken = config.archive.internalToken ?? randomBytes(32).toString("base64url");
  const archive = await startArchive(
    { ...config.archive, internalToken },
    { logger: logger.child({ component: "archive" }), store, httpEndpoint: false, grpcEndpoint: false },
  );
  const archiveAddress = "in-process";
  const bus = await createMemoryBus({ directory: join(config.dataDir, "events") });
  const state = await createFileStateStore({ directory: join(config.dataDir, "state") });
  const turns = createTurnReader(createInProcessArchiveClient(archive.handlers, internalToken));
  const noteWorker = await startNoteWorker(
    { ...config.noteWorker, archiveAddress },
    { logger: logger.child({ component: "note-worker" }), bus, state, turns, summarizerFor: noteWorkerSummarizers(config.noteWorker, env), endpoints: false },
  );
  const secret = config.gateway.resultIdSecret === INSECURE_DEFAULT_SECRET ? await loadOrCreateLocalSecret(config.dataDir) : config.gateway.resultIdSecret;
  const gatewayArchive = createInProcessArchiveClient(archive.handlers, internalToken);
  const retentionMs = config.gateway.retentionDays * 24 * 60 * 60 * 1000;
  const ledger = createLocalLedger({ directory: join(config.dataDir, "ledger"), retentionMsFor: () => retentionMs });
  const gateway = await startGateway(
    { ...config.gateway, archiveAddress, resultIdSecret: secret },
    {
      logger: logger.child({ component: "gateway" }),
      state,
      bus,
      archive: gatewayArchive,
      ledger,
      ...(await gatewayConfigDeps(config.gateway, env)),
      ...(metricsText === undefined ? {} : { metricsText }),
    },
  );
  logger.info("loupe is serving (embedded)", {
    grpc: `${config.gateway.grpcHost}:${String(gateway.grpcPort)}`,
    http: `${config.gateway.httpHost}:${String(gateway.httpPort)}`,
    dataDir: config.dataDir,
    archive: store.backend,
  });
  return {
    grpcPort: gateway.grpcPort,
    httpPort: gateway.httpPort,
    async stop() {
      await gateway.stop();
      await ledger.close();
      await noteWorker.stop();
      gatewayArchive.close();
      turns.close();
      await bus.close();
      await state.close();
      await archive.stop();
      // The archive's journal is checkpointed: a clean stop leaves every saved result fsynced as a file.
      await store.close?.();
      await unlock();
    },
  };
}
