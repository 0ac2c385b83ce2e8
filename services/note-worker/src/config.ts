import { summarizerDefaults, type SummarizerSettings } from "@loupe/summarizer";
import { hostname } from "node:os";
import { readEnum, readInt, readOptionalString, readPort, readString, readUrl, throwOnProblems, type Env } from "@loupe/config";

/** The note-worker's configuration. */
export interface NoteWorkerConfig {
  /** LOUPE_INTERNAL_TOKEN: proves calls between Loupe's services (the archive refuses callers without it when set). */
  internalToken: string | undefined;
  grpcHost: string;
  grpcPort: number;
  httpHost: string;
  httpPort: number;
  natsUrl: string;
  /** Durable consumer name shared by every replica. */
  durableName: string;
  ackWaitMs: number;
  maxInFlight: number;
  /** Where a durable created now starts: every stored event (`all`) or those after it (`new`). */
  startAt: "all" | "new";
  /** Deliveries per event before it is dead-lettered. */
  maxDeliver: number;
  /** host:port of the archive (turn logs). */
  archiveAddress: string;
  /** Redis for notes and rules; undefined = in-process state (embedded mode passes its own). */
  redisUrl: string | undefined;
  /** Largest note, in tokens (also at most a tenth of the session's window). */
  maxNoteTokens: number;
  /** How long a replica holds a session while updating its note (renewed while it works). */
  leaseMs: number;
  /** This replica's name in leases and logs. */
  workerId: string;
  logLevel: "debug" | "info" | "warn" | "error";
  /** Summarizer settings for sources that set none (LOUPE_SUMMARIZER_DRIVER, _MODEL, _BASE_URL, _KEY_REF). */
  summarizer: SummarizerSettings;
}

export const DEFAULT_NOTE_WORKER_GRPC_PORT = 50053;
export const DEFAULT_NOTE_WORKER_HTTP_PORT = 8083;
export const DEFAULT_NATS_URL = "nats://127.0.0.1:4222";
export const DEFAULT_DURABLE_NAME = "note-worker";
export const DEFAULT_ACK_WAIT_MS = 30_000;
export const DEFAULT_MAX_IN_FLIGHT = 16;
export const DEFAULT_MAX_DELIVER = 20;
export const DEFAULT_MAX_NOTE_TOKENS = 4000;
export const DEFAULT_LEASE_MS = 60_000;

/**
 * Reads the note-worker's LOUPE_* variables, reporting every bad one at once.
 * @throws AppError `invalid_argument` listing each problem
 */
export function loadConfig(env: Env = process.env): NoteWorkerConfig {
  const problems: string[] = [];
  const config: NoteWorkerConfig = {
    grpcHost: readString(env, "LOUPE_GRPC_HOST", "127.0.0.1"),
    grpcPort: readPort(env, "LOUPE_GRPC_PORT", DEFAULT_NOTE_WORKER_GRPC_PORT, problems),
    httpHost: readString(env, "LOUPE_HTTP_HOST", "127.0.0.1"),
    httpPort: readPort(env, "LOUPE_HTTP_PORT", DEFAULT_NOTE_WORKER_HTTP_PORT, problems),
    natsUrl: readUrl(env, "LOUPE_NATS_URL", DEFAULT_NATS_URL, ["nats:", "tls:"], problems),
    durableName: readString(env, "LOUPE_NOTE_WORKER_DURABLE", DEFAULT_DURABLE_NAME),
    ackWaitMs: readInt(env, "LOUPE_NOTE_WORKER_ACK_WAIT_MS", DEFAULT_ACK_WAIT_MS, problems, { min: 1000, max: 3_600_000 }),
    maxInFlight: readInt(env, "LOUPE_NOTE_WORKER_MAX_IN_FLIGHT", DEFAULT_MAX_IN_FLIGHT, problems, { min: 1, max: 1024 }),
    startAt: readEnum(env, "LOUPE_NOTE_WORKER_START_AT", ["all", "new"] as const, "all", problems),
    maxDeliver: readInt(env, "LOUPE_NOTE_WORKER_MAX_DELIVER", DEFAULT_MAX_DELIVER, problems, { min: 2, max: 1000 }),
    archiveAddress: readString(env, "LOUPE_ARCHIVE_ADDR", "127.0.0.1:50052"),
    redisUrl: readOptionalString(env, "LOUPE_REDIS_URL") === undefined ? undefined : readUrl(env, "LOUPE_REDIS_URL", "", ["redis:", "rediss:"], problems),
    maxNoteTokens: readInt(env, "LOUPE_NOTE_MAX_TOKENS", DEFAULT_MAX_NOTE_TOKENS, problems, { min: 256, max: 100_000 }),
    leaseMs: readInt(env, "LOUPE_NOTE_LEASE_MS", DEFAULT_LEASE_MS, problems, { min: 1000, max: 3_600_000 }),
    workerId: readString(env, "LOUPE_NOTE_WORKER_ID", `${hostname()}-${String(process.pid)}`),
    summarizer: summarizerDefaults(env),
    internalToken: readOptionalString(env, "LOUPE_INTERNAL_TOKEN"),
    logLevel: readEnum(env, "LOUPE_LOG_LEVEL", ["debug", "info", "warn", "error"] as const, "info", problems),
  };
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(config.durableName))
    problems.push(`LOUPE_NOTE_WORKER_DURABLE=${JSON.stringify(config.durableName)} must be letters, digits, _ or -`);
  if (!/^[^:\s]+:\d+$|^unix:/.test(config.archiveAddress)) problems.push(`LOUPE_ARCHIVE_ADDR=${JSON.stringify(config.archiveAddress)} is not host:port`);
  if (!["", "extractive", "anthropic", "openai"].includes(config.summarizer.driver))
    problems.push(`LOUPE_SUMMARIZER_DRIVER=${JSON.stringify(config.summarizer.driver)} must be extractive, anthropic or openai`);
  throwOnProblems("note-worker", problems);
  return config;
}
