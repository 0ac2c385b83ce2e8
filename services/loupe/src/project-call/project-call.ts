// How the commands a runtime starts once per tool call (the post-tool hook, `loupe exec`) call Project:
// over HTTP/JSON when they can — node's own HTTP client starts in a fraction of the time gRPC's client
// and protobuf's descriptors take to load — else over gRPC. Loads no gRPC unless it is used
// (test/repo/process-imports.test.ts holds it to that).
import { loupeClientOptionsFromEnv } from "@loupe/client/connection-env";
import { NOT_LOUPE, projectOverHttp, type HttpAccess } from "./http-project.js";
import { routeOf } from "./route.js";

export { DEFAULT_HTTP_URL, routeOf, type Route } from "./route.js";

/** What the commands send: a ProjectRequest's fields they fill. */
export interface ProjectCallRequest {
  sessionId: string;
  source: string;
  intent?: string;
  model?: string;
  result: {
    toolUseId?: string;
    toolName: string;
    argsJson: string;
    isError: boolean;
    exitCode?: number;
    durationMs?: number;
    parts: readonly { kind: "text" | "json"; value: string }[];
  };
}

/** What the commands read of a ProjectResponse. */
export interface ProjectCallAnswer {
  /** The view's text and JSON parts, in order (media are left out). */
  parts: { kind: "text" | "json"; value: string }[];
  resultId: string;
  omissions: { startLine?: number | undefined; endLine?: number | undefined }[];
}

/** Where and how Project is called: `where` names it in messages. */
export interface ProjectCaller {
  readonly where: string;
  project(request: ProjectCallRequest, timeoutMs: number): Promise<ProjectCallAnswer>;
}

/** Project over HTTP at `url` (see projectOverHttp). */
export function httpCaller(url: string, access: HttpAccess): ProjectCaller {
  return { where: url, project: (request, timeoutMs) => projectOverHttp(url, access, request, timeoutMs) };
}

/** Project over gRPC at `address`; gRPC's client is loaded on the first call. */
export function grpcCaller(env: NodeJS.ProcessEnv, address: string, maxResultBytes: number): ProjectCaller {
  return {
    where: address,
    project: async (request, timeoutMs) => (await import("./grpc-project.js")).projectOverGrpc(env, address, maxResultBytes, request, timeoutMs),
  };
}

/** A caller along {@link routeOf}'s route, sending LOUPE_TOKEN as `authorization: Bearer …`. */
export function projectCaller(env: NodeJS.ProcessEnv, maxResultBytes: number, flagAddress?: string): ProjectCaller {
  const route = routeOf(env, flagAddress);
  const { token, tls } = loupeClientOptionsFromEnv(env);
  const grpc = (address: string): ProjectCaller => grpcCaller(env, address, maxResultBytes);
  if ("grpc" in route) return grpc(route.grpc);
  const http = httpCaller(route.http, { token, ca: tls instanceof Buffer ? tls : undefined });
  return route.fallbackGrpc === undefined ? http : fallingBack(http, grpc(route.fallbackGrpc));
}

/** `first`, and `then` (with what is left of the deadline) when nothing listens where `first` calls, or no Loupe answers there. */
export function fallingBack(first: ProjectCaller, then: ProjectCaller): ProjectCaller {
  return {
    where: `${first.where} (or ${then.where})`,
    project: async (request, timeoutMs) => {
      const started = Date.now();
      try {
        return await first.project(request, timeoutMs);
      } catch (error) {
        // Nothing listens there, or another server does (a Loupe serving gRPC alone, a development server on 8080): the other way.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ECONNREFUSED" && code !== NOT_LOUPE) throw error;
        return then.project(request, Math.max(1, timeoutMs - (Date.now() - started)));
      }
    },
  };
}
