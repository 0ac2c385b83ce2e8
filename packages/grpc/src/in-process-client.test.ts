import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AppError, isAppError } from "@loupe/errors";
import { ArchiveService } from "@loupe/proto";
import {
  createGrpcClient,
  createInProcessClient,
  registerService,
  startGrpcServer,
  type GrpcServer,
  type ServiceClient,
  type ServiceHandlers,
} from "./index.js";

const MAX_RESULT_BYTES = 64 * 1024;

// One set of handlers, served over gRPC and called in process: callers must not tell the two apart.
interface Seen {
  signal?: AbortSignal;
  /** Set by a caller told that its put is in hand; `toldWhileWorking` is what the handler saw after saying so. */
  told?: boolean;
  toldWhileWorking?: boolean;
}

function handlers(seen: Seen): ServiceHandlers<typeof ArchiveService> {
  const refuse = () => Promise.reject(new AppError("unimplemented", "not here"));
  return {
    async put(requests, context) {
      let bytes = 0;
      let session = "";
      for await (const request of requests) {
        if (request.message.case === "header") session = request.message.value.sessionId;
        if (request.message.case === "chunk") bytes += request.message.value.byteLength;
      }
      if (session === "accept") {
        // Says it has the request in hand twice, then works on: the caller is told once, before the answer.
        context.onAccepted?.();
        context.onAccepted?.();
        seen.toldWhileWorking = seen.told === true;
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { record: { sessionId: `${session}@${context.metadata["x-loupe-tenant"] ?? ""}`, sizeBytes: BigInt(bytes) } };
    },
    async read(request, context) {
      if (request.resultId === "missing") throw new AppError("not_found", `result not found [result_id=${request.resultId}]`, { reason: "too_large" });
      if (request.resultId === "crash") throw new TypeError("secret internals");
      if (request.resultId === "slow") {
        seen.signal = context.signal;
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
      return { data: new TextEncoder().encode(`${context.metadata["x-loupe-tenant"] ?? ""} ${String(context.deadlineMs !== undefined)}`) };
    },
    stat: refuse,
    search: refuse,
    delete: refuse,
    appendTurns: () => Promise.resolve({}),
    readTurns: () => Promise.resolve({}),
    searchTurns: () => Promise.resolve({}),
  };
}

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isAppError(error), String(error));
    return error;
  }
  assert.fail("expected the call to fail");
}

describe("createInProcessClient", () => {
  let server: GrpcServer;
  const remoteSeen: Seen = {};
  const localSeen: Seen = {};
  let remote: ServiceClient<typeof ArchiveService> & { close(): void };
  let local: ServiceClient<typeof ArchiveService> & { close(): void };

  before(async () => {
    server = await startGrpcServer({
      host: "127.0.0.1",
      port: 0,
      maxResultBytes: MAX_RESULT_BYTES,
      services: [registerService(ArchiveService, handlers(remoteSeen))],
    });
    remote = createGrpcClient(ArchiveService, `127.0.0.1:${String(server.port)}`, { maxResultBytes: MAX_RESULT_BYTES });
    local = createInProcessClient(ArchiveService, handlers(localSeen));
  });
  after(async () => {
    remote.close();
    local.close();
    await server.shutdown(1000);
  });

  it("answers a unary call as gRPC does: a message, metadata keys lower-cased, the deadline passed on", async () => {
    for (const client of [remote, local]) {
      const answer = await client.read({ resultId: "r_1" }, { metadata: { "X-Loupe-Tenant": "acme" }, timeoutMs: 5000 });
      assert.equal(answer.$typeName, "loupe.v1.ReadResponse");
      assert.equal(new TextDecoder().decode(answer.data), "acme true");
    }
  });

  it("streams a client-streaming call's requests to the handler as messages", async () => {
    const requests = [
      { message: { case: "header" as const, value: { sessionId: "s1" } } },
      { message: { case: "chunk" as const, value: new Uint8Array(1000) } },
      { message: { case: "chunk" as const, value: new Uint8Array(24) } },
    ];
    const answers = await Promise.all([remote, local].map((client) => client.put(requests, { metadata: { "x-loupe-tenant": "t" } })));
    for (const answer of answers) {
      assert.equal(answer.record?.sessionId, "s1@t");
      assert.equal(answer.record?.sizeBytes, 1024n);
    }
  });

  it("tells the caller once that its request is in hand: in process when the handler says so or ends, over gRPC once written", async () => {
    for (const session of ["accept", "plain"]) {
      for (const [client, where] of [
        [remote, "remote"],
        [local, "local"],
      ] as const) {
        const told: string[] = [];
        const requests = [
          { message: { case: "header" as const, value: { sessionId: session } } },
          { message: { case: "chunk" as const, value: new Uint8Array(10) } },
        ];
        const seen = where === "local" ? localSeen : remoteSeen;
        seen.told = false;
        const onAccepted = (): void => {
          seen.told = true;
          told.push("accepted");
        };
        const answer = await client.put(requests, { metadata: { "x-loupe-tenant": "t" }, onAccepted }).then((answer) => {
          told.push("answered");
          return answer;
        });
        assert.equal(answer.record?.sessionId, `${session}@t`);
        assert.deepEqual(told, ["accepted", "answered"], `${where}, ${session}`);
      }
    }
    assert.equal(localSeen.toldWhileWorking, true, "in process, the caller is told when the handler says so");
    // A listener that throws changes nothing: the call answers as the handler did.
    const throwing = (): never => {
      throw new Error("listener");
    };
    for (const session of ["accept", "plain"])
      for (const client of [remote, local]) {
        const requests = [{ message: { case: "header" as const, value: { sessionId: session } } }];
        const answer = await client.put(requests, { metadata: { "x-loupe-tenant": "t" }, onAccepted: throwing });
        assert.equal(answer.record?.sessionId, `${session}@t`);
      }
    // A unary call over gRPC is not told (nothing streams); in process it is, when it ends.
    const told: string[] = [];
    await remote.read({ resultId: "r_1" }, { onAccepted: () => told.push("remote") });
    await local.read({ resultId: "r_1" }, { onAccepted: () => told.push("local") });
    assert.deepEqual(told, ["local"]);
  });

  it("rejects with the handler's AppError, and hides any other error behind `internal`", async () => {
    for (const client of [remote, local]) {
      const missing = await errorOf(client.read({ resultId: "missing" }));
      assert.equal(missing.code, "not_found");
      assert.match(missing.message, /result not found \[result_id=missing\]/);
      const crash = await errorOf(client.read({ resultId: "crash" }));
      assert.equal(crash.code, "internal");
      assert.doesNotMatch(crash.message, /secret internals/);
    }
  });

  it("a deadline rejects with deadline_exceeded before the handler ends, and aborts the handler's signal", async () => {
    for (const [client, seen] of [
      [remote, remoteSeen],
      [local, localSeen],
    ] as const) {
      const started = performance.now();
      const error = await errorOf(client.read({ resultId: "slow" }, { timeoutMs: 50 }));
      assert.equal(error.code, "deadline_exceeded");
      assert.ok(performance.now() - started < 350);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(seen.signal?.aborted, true);
    }
  });

  it("the caller's abort rejects with cancelled and aborts the handler's signal", async () => {
    for (const [client, seen] of [
      [remote, remoteSeen],
      [local, localSeen],
    ] as const) {
      const controller = new AbortController();
      const call = client.read({ resultId: "slow" }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      const error = await errorOf(call);
      assert.equal(error.code, "cancelled");
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(seen.signal?.aborted, true);
    }
  });
});
