// Where and how a client reaches Loupe — address, token, TLS — as a process's environment gives them, in
// a module that loads no gRPC (`@loupe/client/connection-env`): the hook and `loupe exec`, which a runtime
// starts once per tool call, read them before choosing between HTTP and gRPC.
import { readFileSync } from "node:fs";
import { AppError } from "@loupe/errors";

/** Default Loupe gRPC address. */
export const DEFAULT_ADDRESS = "127.0.0.1:50051";
/** Default deadline of one call (all its attempts and retry delays), in ms. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Options of {@link createLoupeClient}. */
export interface LoupeClientOptions {
  /** host:port of Loupe's gRPC port; default `127.0.0.1:50051`. */
  address?: string;
  /** Deadline of each call in ms, retries included; default 10,000. */
  timeoutMs?: number;
  /** Retries after an `unavailable` failure (retrying calls only); default 3. */
  retries?: number;
  /** Delay before the first retry in ms, doubled for each next one; default 100 (100, 200, 400 ms). */
  retryDelayMs?: number;
  /** Cap on one retry delay in ms; default 5,000. */
  maxRetryDelayMs?: number;
  /** Largest result sent or accepted, in bytes; gRPC message limits are raised to match; default 64 MiB. */
  maxResultBytes?: number;
  /** Metadata sent with every call. */
  metadata?: Readonly<Record<string, string>>;
  /** A Loupe token, sent as `authorization: Bearer <token>` with every call. */
  token?: string;
  /**
   * Connect with TLS (Loupe started with LOUPE_TLS_CERT_FILE): `true` trusts the system's roots;
   * a PEM buffer trusts that certificate authority (e.g. a self-signed certificate).
   */
  tls?: boolean | Buffer;
}

/**
 * The client options a process's environment gives: `LOUPE_ADDR` (host:port), `LOUPE_TOKEN`
 * (blank means unset) and TLS (`LOUPE_TLS_CA_FILE`, or `LOUPE_TLS=1`). Pass `process.env`; the SDK
 * itself never reads it.
 */
export function loupeClientOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): Pick<LoupeClientOptions, "address" | "token" | "tls"> {
  const address = env["LOUPE_ADDR"]?.trim();
  const token = env["LOUPE_TOKEN"]?.trim();
  const tls = tlsFromEnv(env);
  return { ...(address ? { address } : {}), ...(token ? { token } : {}), ...(tls === undefined ? {} : { tls }) };
}

/**
 * TLS from the environment: `LOUPE_TLS_CA_FILE` (a PEM file to trust, read here) or
 * `LOUPE_TLS=1` (the system's roots); undefined = plaintext.
 * @throws AppError `invalid_argument` when the CA file cannot be read
 */
function tlsFromEnv(env: Readonly<Record<string, string | undefined>>): Buffer | true | undefined {
  const caFile = env["LOUPE_TLS_CA_FILE"]?.trim();
  if (caFile) {
    try {
      return readFileSync(caFile);
    } catch (error) {
      throw new AppError("invalid_argument", `LOUPE_TLS_CA_FILE cannot be read [file=${caFile}]`, { cause: error });
    }
  }
  return ["1", "true"].includes(env["LOUPE_TLS"]?.trim().toLowerCase() ?? "") ? true : undefined;
}
