import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AppError, isAppError } from "@loupe/errors";
import { ArchiveService, Health, HealthCheckResponse_ServingStatus as ServingStatus, ProjectionService, ReflectionV1ServerReflection } from "@loupe/proto";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { fromBinary } from "@bufbuild/protobuf";
import { createGrpcClient, createHealthReporter, createReflectionServices, registerService, startGrpcServer, type GrpcServer } from "./index.js";

const MAX_RESULT_BYTES = 64 * 1024;

describe("grpc binding", () => {
  let server: GrpcServer;
  const health = createHealthReporter(["loupe.v1.ArchiveService"]);
  const observed: unknown[] = [];
  let lastSignal: AbortSignal | undefined;

  before(async () => {
    server = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      maxResultBytes: MAX_RESULT_BYTES,
      onError: (error) => observed.push(error),
      services: [
        health.registration,
        ...createReflectionServices([ArchiveService, ProjectionService]),
        registerService(ArchiveService, {
          async put(requests) {
            let bytes = 0;
            let session = "";
            for await (const request of requests) {
              if (request.message.case === "header") session = request.message.value.sessionId;
              if (request.message.case === "chunk") bytes += request.message.value.byteLength;
            }
            return { record: { sessionId: session, sizeBytes: BigInt(bytes) } };
          },
          async read(request, context) {
            if (request.resultId === "missing") throw new AppError("not_found", `result not found [result_id=${request.resultId}]`);
            if (request.resultId === "crash") throw new TypeError("secret internals");
            if (request.resultId === "slow") {
              lastSignal = context.signal;
              await new Promise((resolve) => setTimeout(resolve, 300));
            }
            return { data: new TextEncoder().encode(context.metadata["x-loupe-tenant"] ?? "") };
          },
          stat: () => Promise.reject(new AppError("unimplemented", "not here")),
          search: () => Promise.reject(new AppError("unimplemented", "not here")),
          delete: () => Promise.reject(new AppError("unimplemented", "not here")),
          appendTurns: () => Promise.resolve({}),
          readTurns: () => Promise.resolve({}),
          searchTurns: () => Promise.resolve({}),
        }),
      ],
    });
  });
  after(() => server.shutdown(1000));

  const address = (): string => `127.0.0.1:${String(server.port)}`;

  it("round-trips a unary call with metadata", async () => {
    const client = createGrpcClient(ArchiveService, address(), { maxResultBytes: MAX_RESULT_BYTES, metadata: { "x-loupe-tenant": "local" } });
    const response = await client.read({ resultId: "r1" });
    assert.equal(new TextDecoder().decode(response.data), "local");
    client.close();
  });

  it("streams a client-streaming call in chunks", async () => {
    const client = createGrpcClient(ArchiveService, address(), { maxResultBytes: MAX_RESULT_BYTES });
    async function* requests() {
      yield { message: { case: "header" as const, value: { sessionId: "s1" } } };
      for (let i = 0; i < 10; i++) yield { message: { case: "chunk" as const, value: new Uint8Array(1000) } };
    }
    const response = await client.put(requests());
    assert.equal(response.record?.sizeBytes, 10_000n);
    assert.equal(response.record?.sessionId, "s1");
    client.close();
  });

  it("maps AppError codes to statuses and hides unknown errors", async () => {
    const client = createGrpcClient(ArchiveService, address(), { maxResultBytes: MAX_RESULT_BYTES });
    await assert.rejects(
      client.read({ resultId: "missing" }),
      (error: unknown) => isAppError(error) && error.code === "not_found" && error.message === "result not found [result_id=missing]",
    );
    await assert.rejects(
      client.read({ resultId: "crash" }),
      (error: unknown) => isAppError(error) && error.code === "internal" && error.message === "internal error",
    );
    assert.ok(observed.some((error) => error instanceof TypeError && error.message === "secret internals"));
    client.close();
  });

  it("refuses a message beyond the raised limit with RESOURCE_EXHAUSTED", async () => {
    const client = createGrpcClient(ArchiveService, address(), { maxResultBytes: MAX_RESULT_BYTES * 64 });
    const big = "x".repeat(MAX_RESULT_BYTES + 2 * 1024 * 1024);
    await assert.rejects(client.read({ resultId: big }), (error: unknown) => isAppError(error) && error.code === "resource_exhausted");
    client.close();
  });

  it("accepts messages above grpc's 4 MiB default when the limit allows", async () => {
    const client = createGrpcClient(ArchiveService, address(), { maxResultBytes: MAX_RESULT_BYTES });
    const response = await client.read({ resultId: "y".repeat(MAX_RESULT_BYTES) });
    assert.equal(response.data.byteLength, 0);
    client.close();
  });

  it("aborts the handler's signal at the deadline", async () => {
    const client = createGrpcClient(ArchiveService, address(), { maxResultBytes: MAX_RESULT_BYTES });
    await assert.rejects(client.read({ resultId: "slow" }, { timeoutMs: 50 }), (error: unknown) => isAppError(error) && error.code === "deadline_exceeded");
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(lastSignal?.aborted, true);
    client.close();
  });

  it("serves health Check and Watch", async () => {
    const client = createGrpcClient(Health, address(), { maxResultBytes: MAX_RESULT_BYTES });
    assert.equal((await client.check({ service: "" })).status, ServingStatus.SERVING);
    await assert.rejects(client.check({ service: "nope" }), (error: unknown) => isAppError(error) && error.code === "not_found");
    const controller = new AbortController();
    const seen: ServingStatus[] = [];
    const watching = (async () => {
      try {
        for await (const update of client.watch({ service: "loupe.v1.ArchiveService" }, { signal: controller.signal })) {
          seen.push(update.status);
          if (seen.length === 1) health.setStatus("loupe.v1.ArchiveService", false);
          if (seen.length === 2) controller.abort();
        }
      } catch (error) {
        if (!(isAppError(error) && error.code === "cancelled")) throw error;
      }
    })();
    await watching;
    assert.deepEqual(seen, [ServingStatus.SERVING, ServingStatus.NOT_SERVING]);
    client.close();
  });

  it("answers server reflection for services and symbols", async () => {
    const client = createGrpcClient(ReflectionV1ServerReflection, address(), { maxResultBytes: MAX_RESULT_BYTES });
    const requests = [
      { messageRequest: { case: "listServices" as const, value: "" } },
      { messageRequest: { case: "fileContainingSymbol" as const, value: "loupe.v1.ProjectionService.Project" } },
      { messageRequest: { case: "fileContainingSymbol" as const, value: "no.such.Thing" } },
    ];
    const answers = [];
    for await (const answer of client.serverReflectionInfo(requests)) answers.push(answer);
    assert.equal(answers.length, 3);
    const list = answers[0]?.messageResponse;
    assert.equal(list?.case, "listServicesResponse");
    const names = list?.case === "listServicesResponse" ? list.value.service.map((service) => service.name) : [];
    assert.ok(names.includes("loupe.v1.ProjectionService"));
    const files = answers[1]?.messageResponse;
    assert.equal(files?.case, "fileDescriptorResponse");
    const fileNames =
      files?.case === "fileDescriptorResponse" ? files.value.fileDescriptorProto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name) : [];
    assert.deepEqual(fileNames, ["loupe/v1/projection.proto", "loupe/v1/tool_result.proto"]);
    assert.equal(answers[2]?.messageResponse.case, "errorResponse");
    client.close();
  });
});
