import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { ProjectRequestSchema } from "@loupe/proto";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { formatOutcomes, runFuzz } from "./fuzz-surfaces.js";

describe("hostile input on the public gRPC and HTTP surfaces (a short run; `pnpm fuzz` runs 100,000)", () => {
  let loupe: EmbeddedLoupe;

  before(async () => {
    loupe = await startEmbeddedLoupe();
  });
  after(() => loupe.stop());

  it("answers every malformed request with a client error, never INTERNAL or 500, and keeps serving", async (context) => {
    const report = await runFuzz({ grpcPort: loupe.grpcPort, httpPort: loupe.httpPort, requests: 600, seed: 20261201 });
    for (const line of formatOutcomes(report.outcomes).split("\n")) context.diagnostic(line);
    assert.deepEqual(report.failures, []);
    assert.equal((await fetch(`http://127.0.0.1:${String(loupe.httpPort)}/healthz`)).status, 200);
  });

  it("names the field whose bytes are not UTF-8, with INVALID_ARGUMENT", async () => {
    const bytes = Buffer.from(
      toBinary(
        ProjectRequestSchema,
        create(ProjectRequestSchema, { sessionId: "s", result: { toolName: "bash", parts: [{ content: { case: "text", value: "abcdef" } }] } }),
      ),
    );
    bytes[bytes.indexOf(Buffer.from("abcdef"))] = 0xff;
    const client = new grpc.Client(`127.0.0.1:${String(loupe.grpcPort)}`, grpc.credentials.createInsecure());
    const error = await new Promise<grpc.ServiceError | null>((resolve) =>
      client.makeUnaryRequest(
        "/loupe.v1.ProjectionService/Project",
        (value: Buffer) => value,
        (value: Buffer) => value,
        bytes,
        (failure) => resolve(failure),
      ),
    );
    client.close();
    assert.equal(error?.code, grpc.status.INVALID_ARGUMENT);
    assert.match(error?.details ?? "", /request is not a valid loupe\.v1\.ProjectRequest: field result\.parts\.text is not valid UTF-8/);
  });
});
