import { summarizerDefaults, type SummarizerSettings } from "@loupe/summarizer";
import { readBool, readEnum, readInt, readOptionalString, readPort, readString, readUrl, throwOnProblems, type Env } from "@loupe/config";
import { DEFAULT_MAX_RESULT_BYTES } from "@loupe/grpc";
import { DEFAULT_BUDGET_TOKENS, MAX_VIEW_BYTES } from "@loupe/projection";
import { MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS } from "@loupe/rules";
import { DEFAULT_COUNT_WORKERS } from "./project/count-pool.js";

/** The gateway's configuration. */
export interface GatewayConfig {
  /** LOUPE_INTERNAL_TOKEN: proves calls between Loupe's services (the archive refuses callers without it when set). */
  internalToken: string | undefined;
  grpcHost: string;
  grpcPort: number;
  httpHost: string;
  httpPort: number;
  /** host:port of the archive service. */
  archiveAddress: string;
  /**
   * LOUPE_GATEWAY_PUTS: who writes a saved result to the object store — `archive` (default: a Put call to the
   * archive service) or `direct` (this process, with the archive's own Put over the same S3 bucket; reads,
   * searches, deletes, turns and the sweeper stay with the archive). `direct` needs the archive's S3 settings.
   */
  puts: "archive" | "direct";
  /** NATS for result events; undefined = no events (embedded mode passes its own bus). */
  natsUrl: string | undefined;
  maxResultBytes: number;
  /** Time budget of one archive put; past it the gateway answers fail-open. */
  archiveTimeoutMs: number;
  defaultBudgetTokens: number;
  /** Hard cap on a first view's UTF-8 bytes. */
  maxViewBytes: number;
  /** Key that makes result ids unguessable; every gateway replica needs the same one. */
  resultIdSecret: string;
  /** Redis for rules, revisions and notes; undefined = in-process state (one replica only). */
  redisUrl: string | undefined;
  /** How long path revisions are kept (days; the archive's retention). */
  retentionDays: number;
  /** Upstreams of the vendor proxy. */
  anthropicBaseUrl: string;
  openAiBaseUrl: string;
  /** Upstream of the vendor proxy's Gemini routes (LOUPE_GEMINI_BASE_URL). */
  geminiBaseUrl: string;
  /** Mask secrets before saving or showing results (LOUPE_REDACTION, default on). */
  redaction: boolean;
  /** A JSON file of redaction rules (see docs/redaction.md); undefined = the defaults. */
  redactionRulesFile: string | undefined;
  /** A JSON file of field-view specs (see docs/configuration.md); undefined = none. */
  viewSpecsFile: string | undefined;
  logLevel: "debug" | "info" | "warn" | "error";
  /** Summarizer settings for sources that set none (LOUPE_SUMMARIZER_DRIVER, _MODEL, _BASE_URL, _KEY_REF). */
  summarizer: SummarizerSettings;
  /** The context window assumed for a session that states none (LOUPE_CONTEXT_WINDOW_TOKENS). */
  contextWindowTokens: number;
  /**
   * The operator's bearer token (LOUPE_ADMIN_TOKEN): with auth on, it manages every tenant's tokens
   * and is an admin of `local`; with auth off, it makes an HTTP caller of /mcp admin (set_app_limit).
   */
  adminToken: string | undefined;
  /** PEM files of the public ports' certificate chain and key (LOUPE_TLS_CERT_FILE, LOUPE_TLS_KEY_FILE): both, or neither (plaintext). */
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  /** Threads that count long originals beside the call (LOUPE_COUNT_WORKERS); 0 = counted in the call's thread. */
  countWorkers: number;
  /** Calls one gateway process runs at once (LOUPE_MAX_IN_FLIGHT); more wait in line. */
  maxInFlight: number;
  /** How long a call may wait for a slot before it is shed with UNAVAILABLE (LOUPE_ADMISSION_WAIT_MS). */
  admissionWaitMs: number;
  /** Calls a second per tenant, shared by every replica through the state store; 0 = no limit (LOUPE_RATE_LIMIT_PER_SECOND). */
  rateLimitPerSecond: number;
  /** LOUPE_AUTH: `off` (every caller is tenant `local`) or `tokens` (the tenant comes from a bearer token). */
  auth: "off" | "tokens";
  /** True when LOUPE_AUTH=off was set explicitly (required to serve beyond loopback without auth). */
  authOffExplicit: boolean;
}

export const DEFAULT_GRPC_PORT = 50051;
export const DEFAULT_HTTP_PORT = 8080;
export const DEFAULT_ARCHIVE_ADDRESS = "127.0.0.1:50052";
export const DEFAULT_ARCHIVE_TIMEOUT_MS = 2000;
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 200_000;
/** Used when LOUPE_RESULT_ID_SECRET is unset; fine for one machine, not for a shared deployment. */
export const INSECURE_DEFAULT_SECRET = "loupe-insecure-default-secret";

/** True for an address only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Reads the gateway's LOUPE_* variables, reporting every bad one at once.
 * @throws AppError `invalid_argument` listing each problem
 */
export function loadConfig(env: Env = process.env): GatewayConfig {
  const problems: string[] = [];
  const config: GatewayConfig = {
    grpcHost: readString(env, "LOUPE_GRPC_HOST", "127.0.0.1"),
    grpcPort: readPort(env, "LOUPE_GRPC_PORT", DEFAULT_GRPC_PORT, problems),
    httpHost: readString(env, "LOUPE_HTTP_HOST", "127.0.0.1"),
    httpPort: readPort(env, "LOUPE_HTTP_PORT", DEFAULT_HTTP_PORT, problems),
    archiveAddress: readString(env, "LOUPE_ARCHIVE_ADDR", DEFAULT_ARCHIVE_ADDRESS),
    puts: readEnum(env, "LOUPE_GATEWAY_PUTS", ["archive", "direct"] as const, "archive", problems),
    natsUrl: readOptionalString(env, "LOUPE_NATS_URL") === undefined ? undefined : readUrl(env, "LOUPE_NATS_URL", "", ["nats:", "tls:"], problems),
    maxResultBytes: readInt(env, "LOUPE_MAX_RESULT_BYTES", DEFAULT_MAX_RESULT_BYTES, problems, { min: 1024, max: 1024 * 1024 * 1024 }),
    archiveTimeoutMs: readInt(env, "LOUPE_ARCHIVE_TIMEOUT_MS", DEFAULT_ARCHIVE_TIMEOUT_MS, problems, { min: 1, max: 600_000 }),
    defaultBudgetTokens: readInt(env, "LOUPE_DEFAULT_BUDGET_TOKENS", DEFAULT_BUDGET_TOKENS, problems, { min: MIN_BUDGET_TOKENS, max: MAX_BUDGET_TOKENS }),
    maxViewBytes: readInt(env, "LOUPE_MAX_VIEW_BYTES", MAX_VIEW_BYTES, problems, { min: 1024, max: 10 * 1024 * 1024 }),
    resultIdSecret: readString(env, "LOUPE_RESULT_ID_SECRET", INSECURE_DEFAULT_SECRET),
    viewSpecsFile: readOptionalString(env, "LOUPE_VIEW_SPECS_FILE"),
    redaction: readBool(env, "LOUPE_REDACTION", true, problems),
    anthropicBaseUrl: readUrl(env, "LOUPE_ANTHROPIC_BASE_URL", "https://api.anthropic.com", ["http:", "https:"], problems),
    openAiBaseUrl: readUrl(env, "LOUPE_OPENAI_BASE_URL", "https://api.openai.com", ["http:", "https:"], problems),
    geminiBaseUrl: readUrl(env, "LOUPE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com", ["http:", "https:"], problems),
    redactionRulesFile: readOptionalString(env, "LOUPE_REDACTION_RULES_FILE"),
    redisUrl: readOptionalString(env, "LOUPE_REDIS_URL") === undefined ? undefined : readUrl(env, "LOUPE_REDIS_URL", "", ["redis:", "rediss:"], problems),
    retentionDays: readInt(env, "LOUPE_RETENTION_DAYS", 7, problems, { min: 1, max: 3650 }),
    contextWindowTokens: readInt(env, "LOUPE_CONTEXT_WINDOW_TOKENS", DEFAULT_CONTEXT_WINDOW_TOKENS, problems, { min: 1000, max: 10_000_000 }),
    summarizer: summarizerDefaults(env),
    adminToken: readOptionalString(env, "LOUPE_ADMIN_TOKEN"),
    tlsCertFile: readOptionalString(env, "LOUPE_TLS_CERT_FILE"),
    tlsKeyFile: readOptionalString(env, "LOUPE_TLS_KEY_FILE"),
    countWorkers: readInt(env, "LOUPE_COUNT_WORKERS", DEFAULT_COUNT_WORKERS, problems, { min: 0, max: 16 }),
    maxInFlight: readInt(env, "LOUPE_MAX_IN_FLIGHT", 64, problems, { min: 1, max: 100_000 }),
    admissionWaitMs: readInt(env, "LOUPE_ADMISSION_WAIT_MS", 5000, problems, { min: 0, max: 600_000 }),
    rateLimitPerSecond: readInt(env, "LOUPE_RATE_LIMIT_PER_SECOND", 0, problems, { min: 0, max: 1_000_000 }),
    auth: readEnum(env, "LOUPE_AUTH", ["off", "tokens"] as const, "off", problems),
    authOffExplicit: readOptionalString(env, "LOUPE_AUTH") === "off",
    internalToken: readOptionalString(env, "LOUPE_INTERNAL_TOKEN"),
    logLevel: readEnum(env, "LOUPE_LOG_LEVEL", ["debug", "info", "warn", "error"] as const, "info", problems),
  };
  if (config.adminToken !== undefined && !/^\S{16,}$/.test(config.adminToken))
    problems.push("LOUPE_ADMIN_TOKEN must be at least 16 characters, without spaces");
  for (const [name, host] of [
    ["LOUPE_GRPC_HOST", config.grpcHost],
    ["LOUPE_HTTP_HOST", config.httpHost],
  ] as const) {
    if (config.auth === "off" && !config.authOffExplicit && !isLoopback(host)) {
      problems.push(
        `${name}=${host} serves beyond this machine with authentication off: set LOUPE_AUTH=tokens (with LOUPE_ADMIN_TOKEN), or LOUPE_AUTH=off to serve without it`,
      );
    }
  }
  if ((config.tlsCertFile === undefined) !== (config.tlsKeyFile === undefined))
    problems.push("LOUPE_TLS_CERT_FILE and LOUPE_TLS_KEY_FILE go together: set both, or neither");
  if (config.auth === "tokens" && config.adminToken === undefined)
    problems.push("LOUPE_AUTH=tokens needs LOUPE_ADMIN_TOKEN (the operator's token, which creates the others)");
  if (!/^[^:\s]+:\d+$/.test(config.archiveAddress)) problems.push(`LOUPE_ARCHIVE_ADDR=${JSON.stringify(config.archiveAddress)} is not host:port`);
  if (!["", "extractive", "anthropic", "openai"].includes(config.summarizer.driver))
    problems.push(`LOUPE_SUMMARIZER_DRIVER=${JSON.stringify(config.summarizer.driver)} must be extractive, anthropic or openai`);
  throwOnProblems("gateway", problems);
  return config;
}
