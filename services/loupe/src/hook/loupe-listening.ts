import { connect } from "node:net";
import { routeOf } from "../project-call/route.js";

/** How long the pre-tool hook waits to learn whether anything listens where Loupe should be. */
const LISTEN_CHECK_MS = 300;

/** Host and port of a gRPC address (`host:port`, `[v6]:port`) or an HTTP(S) URL; undefined when neither. */
function hostPort(where: string): { host: string; port: number } | undefined {
  if (/^https?:\/\//.test(where)) {
    try {
      const url = new URL(where);
      return { host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || (url.protocol === "https:" ? 443 : 80)) };
    } catch {
      return undefined;
    }
  }
  const match = /^(?:dns:\/*)?\[?([^\]]*?)\]?:(\d+)$/.exec(where);
  return match?.[1] && match[2] ? { host: match[1], port: Number(match[2]) } : undefined;
}

/** Whether a TCP connection to `where` opens within `timeoutMs`. */
function opens(where: string, timeoutMs: number): Promise<boolean> {
  const target = hostPort(where);
  if (target === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect({ host: target.host, port: target.port });
    const done = (open: boolean): void => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * Whether something listens where the post-tool hook will call Loupe (routeOf: LOUPE_HTTP_URL, else
 * LOUPE_ADDR, else the local default's HTTP port, then its gRPC port), within 300 ms. The pre-tool hook
 * asks before it changes a call whose larger output only Loupe would cut (a Grep's lifted limit): with
 * Loupe down, the call runs as the runtime would run it.
 */
export async function loupeListening(env: NodeJS.ProcessEnv, timeoutMs = LISTEN_CHECK_MS): Promise<boolean> {
  const route = routeOf(env);
  if ("grpc" in route) return opens(route.grpc, timeoutMs);
  if (await opens(route.http, timeoutMs)) return true;
  return route.fallbackGrpc !== undefined && opens(route.fallbackGrpc, timeoutMs);
}
