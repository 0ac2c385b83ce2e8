// Where the commands a runtime starts call Loupe. Apart from the callers, so that a hook that only needs to
// know where Loupe is (the pre-tool hook) loads no way of calling it.
import { DEFAULT_ADDRESS, loupeClientOptionsFromEnv } from "@loupe/client/connection-env";

/** Loupe's HTTP port when nothing names where Loupe is (`loupe serve`'s default). */
export const DEFAULT_HTTP_URL = "http://127.0.0.1:8080";

/** Which way to call: HTTP at a URL, or gRPC at an address (with, for the default, the other to try when nothing listens). */
export type Route = { http: string; fallbackGrpc?: string } | { grpc: string };

/**
 * The way the environment names: `--addr` (a gRPC address) first, then `LOUPE_HTTP_URL` (HTTP), then
 * `LOUPE_ADDR` (gRPC, as before); with neither, nor TLS asked for, the local default — HTTP at
 * 127.0.0.1:8080, and gRPC at 127.0.0.1:50051 when nothing listens there.
 */
export function routeOf(env: NodeJS.ProcessEnv, flagAddress?: string): Route {
  if (flagAddress !== undefined) return { grpc: flagAddress };
  const url = env["LOUPE_HTTP_URL"]?.trim();
  if (url) return { http: url.replace(/\/+$/, "") };
  const { address, tls } = loupeClientOptionsFromEnv(env);
  if (address !== undefined) return { grpc: address };
  // A TLS setting with no HTTP URL is for the gRPC port: stay with it.
  if (tls !== undefined) return { grpc: DEFAULT_ADDRESS };
  return { http: DEFAULT_HTTP_URL, fallbackGrpc: DEFAULT_ADDRESS };
}
