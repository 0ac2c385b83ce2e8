// Embedded and distributed Loupe as the benchmarks run them: with authentication on (LOUPE_AUTH=tokens, a
// tenant's token on every call, so each call pays its token lookup as a deployment's would), unless
// LOUPE_BENCH_AUTH=off. The client each returns sends the token.
import { randomBytes } from "node:crypto";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../../support/embedded-loupe.js";
import { createTokenWithCli } from "../../support/run-loupe-command.js";
import { startDistributedLoupe, type DistributedLoupe } from "../../support/distributed-loupe.js";

/** Whether the benchmarks' Loupes check tokens (LOUPE_BENCH_AUTH: `tokens`, the default, or `off`). */
export const BENCH_AUTH: "tokens" | "off" = process.env["LOUPE_BENCH_AUTH"] === "off" ? "off" : "tokens";

const OPERATOR = randomBytes(24).toString("base64url");
const authEnv = (): Record<string, string> => (BENCH_AUTH === "off" ? {} : { LOUPE_AUTH: "tokens", LOUPE_ADMIN_TOKEN: OPERATOR });

/** A ProjectionService client of `address` that sends a new token of tenant `bench` (none with auth off). */
async function benchClient(address: string): Promise<GrpcClient<typeof ProjectionService>> {
  if (BENCH_AUTH === "off") return createGrpcClient(ProjectionService, address, { maxResultBytes: 64 * 1024 * 1024 });
  const token = await createTokenWithCli(address, OPERATOR, ["--tenant", "bench"]);
  return createGrpcClient(ProjectionService, address, { maxResultBytes: 64 * 1024 * 1024, metadata: { authorization: `Bearer ${token}` } });
}

/** `loupe` with the client of `address` (see benchClient) in place of its own; stopping it closes that client too. */
async function withBenchClient<L extends { client: GrpcClient<typeof ProjectionService>; stop(): Promise<void> }>(loupe: L, address: string): Promise<L> {
  try {
    const client = await benchClient(address);
    return {
      ...loupe,
      client,
      async stop() {
        client.close();
        await loupe.stop();
      },
    };
  } catch (error) {
    await loupe.stop();
    throw error;
  }
}

/** `loupe serve` as the benchmarks run it (see BENCH_AUTH). */
export async function startBenchEmbedded(): Promise<EmbeddedLoupe> {
  const loupe = await startEmbeddedLoupe(authEnv());
  return withBenchClient(loupe, `127.0.0.1:${String(loupe.grpcPort)}`);
}

/** The archive and the gateway as the benchmarks run them (see BENCH_AUTH); with `directPuts`, LOUPE_GATEWAY_PUTS=direct. */
export async function startBenchDistributed(options: { directPuts?: boolean } = {}): Promise<DistributedLoupe> {
  const loupe = await startDistributedLoupe(authEnv(), options);
  return withBenchClient(loupe, loupe.address);
}
