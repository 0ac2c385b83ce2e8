// Where and how a client reaches Loupe — address, token, TLS — alone in a module of their own
// (`@loupe/client/connection`): the commands a runtime starts once per tool call (the hook, `loupe
// exec`) connect with them without loading the whole SDK. What the environment gives is read in
// connection-env.ts, which loads no gRPC.
import * as grpc from "@grpc/grpc-js";

export { DEFAULT_ADDRESS, DEFAULT_TIMEOUT_MS, loupeClientOptionsFromEnv, type LoupeClientOptions } from "./connection-env.js";

/** The channel credentials of {@link LoupeClientOptions.tls}. */
export function channelCredentials(tls: boolean | Buffer | undefined): grpc.ChannelCredentials {
  if (tls === undefined || tls === false) return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(tls === true ? null : tls);
}
