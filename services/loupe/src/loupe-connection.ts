// Loaded by the commands a runtime starts once per tool call: only the client side of gRPC and the
// projection service's messages (test/repo/process-imports.test.ts holds them to that).
import { channelCredentials, DEFAULT_ADDRESS, loupeClientOptionsFromEnv } from "@loupe/client/connection";
import { createGrpcClient, DEFAULT_MAX_RESULT_BYTES, type GrpcClient } from "@loupe/grpc/client";
import { ProjectionService } from "@loupe/proto/loupe/v1/projection";

/** Where the client commands, the hooks and `loupe exec` find Loupe: --addr, else LOUPE_ADDR, else 127.0.0.1:50051. */
export function loupeAddress(env: NodeJS.ProcessEnv, flag?: string): string {
  return flag ?? loupeClientOptionsFromEnv(env).address ?? DEFAULT_ADDRESS;
}

/** A ProjectionService client to `address`, sending LOUPE_TOKEN (when set) as `authorization: Bearer …`. */
export function projectionClient(env: NodeJS.ProcessEnv, address: string, maxResultBytes = DEFAULT_MAX_RESULT_BYTES): GrpcClient<typeof ProjectionService> {
  const { token, tls } = loupeClientOptionsFromEnv(env);
  return createGrpcClient(ProjectionService, address, {
    maxResultBytes,
    credentials: channelCredentials(tls),
    ...(token === undefined ? {} : { metadata: { authorization: `Bearer ${token}` } }),
  });
}
