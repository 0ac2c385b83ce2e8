import { readList, readEnum, readInt, readOptionalString, readPort, readBool, readString, throwOnProblems, type Env } from "@loupe/config";
import { DEFAULT_MAX_RESULT_BYTES } from "@loupe/grpc";
import { INLINE_CONTENT_BYTES, SMALL_CONTENT_BYTES } from "./store-content.js";

/** Where the archive keeps blobs. */
export type ArchiveBackend = "auto" | "fs" | "lmdb" | "s3";

/** The archive service's configuration. */
export interface ArchiveConfig {
  /** LOUPE_INTERNAL_TOKEN: proves calls between Loupe's services (the archive refuses callers without it when set). */
  internalToken: string | undefined;
  grpcHost: string;
  grpcPort: number;
  httpHost: string;
  httpPort: number;
  backend: ArchiveBackend;
  /** Root of the local backends: `<dataDir>/archive` (fs) or `<dataDir>/archive-lmdb` (lmdb); `auto` picks one (chooseLocalBackend). */
  dataDir: string;
  s3: { endpoint: string | undefined; bucket: string; region: string; forcePathStyle: boolean; requestTimeoutMs: number };
  maxResultBytes: number;
  /** LOUPE_ARCHIVE_INLINE_BYTES: largest content kept in its record on S3 or the file store (0: every content in a shared blob). */
  inlineMaxBytes: number;
  retentionDays: number;
  /** Per-tenant retention overriding retentionDays (LOUPE_RETENTION_DAYS_BY_TENANT="teamA=3,teamB=30"). */
  retentionDaysByTenant: Record<string, number>;
  /** Between sweeps of expired results (ms); 0 turns the sweeper off. */
  sweepIntervalMs: number;
  logLevel: "debug" | "info" | "warn" | "error";
}

export const DEFAULT_ARCHIVE_GRPC_PORT = 50052;
export const DEFAULT_ARCHIVE_HTTP_PORT = 8082;
export const DEFAULT_DATA_DIR = "./.loupe";
export const DEFAULT_S3_BUCKET = "loupe-archive";
export const DEFAULT_S3_REGION = "us-east-1";
export const DEFAULT_RETENTION_DAYS = 7;
/** One sweep of expired results an hour. */
export const DEFAULT_SWEEP_INTERVAL_MS = 3_600_000;
/** How long an S3 request may go without progress; generous, since a large result streams in one PUT. */
export const DEFAULT_S3_REQUEST_TIMEOUT_MS = 60_000;

// "teamA=3, teamB=30": whole days from 1 to 3650 per tenant.
function readRetentionByTenant(env: Env, problems: string[]): Record<string, number> {
  const byTenant: Record<string, number> = {};
  for (const item of readList(env, "LOUPE_RETENTION_DAYS_BY_TENANT", [])) {
    const match = /^([a-z0-9][a-z0-9_-]{0,62})=(\d{1,4})$/.exec(item);
    const days = Number(match?.[2]);
    if (!match?.[1] || days < 1 || days > 3650) {
      problems.push(`LOUPE_RETENTION_DAYS_BY_TENANT has a bad entry ${JSON.stringify(item)} (want tenant=days, days 1–3650)`);
      continue;
    }
    byTenant[match[1]] = days;
  }
  return byTenant;
}

/**
 * Reads the archive's LOUPE_* variables. Reports every bad variable at once.
 * @throws AppError `invalid_argument` listing each problem
 */
export function loadConfig(env: Env = process.env): ArchiveConfig {
  const problems: string[] = [];
  const config: ArchiveConfig = {
    grpcHost: readString(env, "LOUPE_GRPC_HOST", "127.0.0.1"),
    grpcPort: readPort(env, "LOUPE_GRPC_PORT", DEFAULT_ARCHIVE_GRPC_PORT, problems),
    httpHost: readString(env, "LOUPE_HTTP_HOST", "127.0.0.1"),
    httpPort: readPort(env, "LOUPE_HTTP_PORT", DEFAULT_ARCHIVE_HTTP_PORT, problems),
    backend: readEnum(env, "LOUPE_ARCHIVE_BACKEND", ["auto", "fs", "lmdb", "s3"] as const, "auto", problems),
    dataDir: readString(env, "LOUPE_DATA_DIR", DEFAULT_DATA_DIR),
    s3: {
      endpoint: readOptionalString(env, "LOUPE_S3_ENDPOINT"),
      bucket: readString(env, "LOUPE_S3_BUCKET", DEFAULT_S3_BUCKET),
      region: readString(env, "LOUPE_S3_REGION", DEFAULT_S3_REGION),
      forcePathStyle: readBool(env, "LOUPE_S3_FORCE_PATH_STYLE", true, problems),
      requestTimeoutMs: readInt(env, "LOUPE_S3_REQUEST_TIMEOUT_MS", DEFAULT_S3_REQUEST_TIMEOUT_MS, problems, { min: 100, max: 3_600_000 }),
    },
    maxResultBytes: readInt(env, "LOUPE_MAX_RESULT_BYTES", DEFAULT_MAX_RESULT_BYTES, problems, { min: 1024, max: 1024 * 1024 * 1024 }),
    inlineMaxBytes: readInt(env, "LOUPE_ARCHIVE_INLINE_BYTES", INLINE_CONTENT_BYTES, problems, { min: 0, max: SMALL_CONTENT_BYTES }),
    retentionDays: readInt(env, "LOUPE_RETENTION_DAYS", DEFAULT_RETENTION_DAYS, problems, { min: 1, max: 3650 }),
    retentionDaysByTenant: readRetentionByTenant(env, problems),
    sweepIntervalMs: readInt(env, "LOUPE_SWEEP_INTERVAL_MS", DEFAULT_SWEEP_INTERVAL_MS, problems, { min: 0, max: 7 * 24 * 3_600_000 }),
    internalToken: readOptionalString(env, "LOUPE_INTERNAL_TOKEN"),
    logLevel: readEnum(env, "LOUPE_LOG_LEVEL", ["debug", "info", "warn", "error"] as const, "info", problems),
  };
  if (config.backend === "s3" && config.s3.endpoint === undefined && env["AWS_REGION"] === undefined && env["LOUPE_S3_REGION"] === undefined) {
    problems.push("LOUPE_ARCHIVE_BACKEND=s3 needs LOUPE_S3_ENDPOINT (or a region for AWS S3)");
  }
  throwOnProblems("archive", problems);
  return config;
}
