import { loadConfig as loadArchiveConfig, type ArchiveConfig } from "@loupe/archive";
import { readEnum, readString, throwOnProblems, type Env } from "@loupe/config";
import { loadConfig as loadGatewayConfig, type GatewayConfig } from "@loupe/gateway";
import { loadConfig as loadNoteWorkerConfig, type NoteWorkerConfig } from "@loupe/note-worker";
import { AppError, isAppError } from "@loupe/errors";

/** Embedded mode: the three services' configs, read from one environment. */
export interface ServeConfig {
  dataDir: string;
  gateway: GatewayConfig;
  archive: ArchiveConfig;
  noteWorker: NoteWorkerConfig;
}

/**
 * Reads the embedded configuration: the gateway's ports are the public ones;
 * the archive listens on an ephemeral loopback port only the gateway uses, on
 * the filesystem under LOUPE_DATA_DIR (files or an LMDB database: LOUPE_ARCHIVE_BACKEND, default auto). Reports every bad variable at once.
 * @throws AppError `invalid_argument` listing each problem
 */
export function loadServeConfig(env: Env): ServeConfig {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!isAppError(error)) throw error;
      problems.push(...(error.problems ?? [error.message]));
      return undefined;
    }
  };
  const gateway = attempt(() => loadGatewayConfig(env));
  // The archive stays on this machine: files or an LMDB database under the data dir (auto: the one there, else LMDB).
  const backend = readEnum(env, "LOUPE_ARCHIVE_BACKEND", ["auto", "fs", "lmdb"] as const, "auto", problems);
  const archive = attempt(() =>
    loadArchiveConfig({ ...env, LOUPE_ARCHIVE_BACKEND: backend, LOUPE_GRPC_HOST: "127.0.0.1", LOUPE_GRPC_PORT: "0", LOUPE_HTTP_PORT: "0" }),
  );
  const noteWorker = attempt(() => loadNoteWorkerConfig({ ...env, LOUPE_GRPC_PORT: "0", LOUPE_HTTP_PORT: "0" }));
  const unique = [...new Set(problems)];
  if (!gateway || !archive || !noteWorker || unique.length > 0) throwOnProblems("embedded", unique);
  if (!gateway || !archive || !noteWorker) throw new AppError("internal", "a configuration loader failed without a problem");
  return { dataDir: readString(env, "LOUPE_DATA_DIR", "./.loupe"), gateway, archive, noteWorker };
}
