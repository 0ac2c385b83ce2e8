import { channelCredentials, DEFAULT_ADDRESS, loupeClientOptionsFromEnv } from "@loupe/client";
import { createGrpcClient, DEFAULT_MAX_RESULT_BYTES, type GrpcClient } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";

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
