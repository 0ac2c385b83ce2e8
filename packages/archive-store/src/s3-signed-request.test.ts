import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { appErrorFromS3Error } from "./s3-errors.js";
import { createSignedRequester, s3Target, S3ResponseError } from "./s3-signed-request.js";

// A scripted HTTP server on 127.0.0.1 answers as S3 would; RGW's real answers are covered by
// test/integration/archive-store-s3.test.ts.
type Handler = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;
let handler: Handler = (_request, response) => response.end();
const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: Buffer }[] = [];
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks);
    seen.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
    handler(request, response, body);
  });
});
let endpoint = "";
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const requesterOf = (overrides: { requestTimeoutMs?: number; connectionTimeoutMs?: number; maxAttempts?: number; endpoint?: string } = {}) => {
  const stats = { bytesReceived: 0, requests: 0 };
  const requester = createSignedRequester({
    endpoint: overrides.endpoint ?? endpoint,
    region: "us-east-1",
    bucket: "bkt",
    forcePathStyle: true,
    credentials: () => Promise.resolve({ accessKeyId: "AK", secretAccessKey: "SK" }),
    requestTimeoutMs: overrides.requestTimeoutMs ?? 2_000,
    connectionTimeoutMs: overrides.connectionTimeoutMs ?? 1_000,
    maxAttempts: overrides.maxAttempts ?? 2,
    stats,
  });
  return { requester, stats };
};
const context = { endpoint: "e", bucket: "bkt", operation: "get", key: "k" };

describe("createSignedRequester()", () => {
  it("sends a signed PUT path-style with its headers and body, and reads a GET's body", async () => {
    seen.length = 0;
    handler = (request, response, body) => response.end(request.method === "GET" ? "hello" : body.length === 0 ? "" : undefined);
    const { requester, stats } = requesterOf();
    try {
      await requester.send({ operation: "PutObject", method: "PUT", key: "t/a b", headers: { "if-none-match": "*" }, body: new TextEncoder().encode("xyz") });
      const got = await requester.send({ operation: "GetObject", method: "GET", key: "t/a b" });
      assert.equal(new TextDecoder().decode(got.body), "hello");
      assert.equal(seen[0]?.url, "/bkt/t/a%20b");
      assert.equal(seen[0]?.headers["if-none-match"], "*");
      assert.equal(seen[0]?.body.toString(), "xyz");
      assert.match(
        String(seen[0]?.headers["authorization"]),
        /^AWS4-HMAC-SHA256 Credential=AK\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=content-length;host;if-none-match;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
      );
      assert.equal(stats.requests, 2);
      assert.equal(stats.bytesReceived, 5);
    } finally {
      requester.close();
    }
  });

  it("goes virtual-hosted to bucket.host unless path-style is asked, the endpoint is an IP address or the bucket has dots", () => {
    const aws = s3Target(new URL("https://s3.eu-west-1.amazonaws.com"), "logs", false);
    assert.deepEqual([aws.hostname, aws.host, aws.pathOf("t/a b")], ["logs.s3.eu-west-1.amazonaws.com", "logs.s3.eu-west-1.amazonaws.com", "/t/a%20b"]);
    const minio = s3Target(new URL("http://minio.internal:9000"), "logs", false);
    assert.deepEqual([minio.hostname, minio.host], ["logs.minio.internal", "logs.minio.internal:9000"]);
    for (const [endpoint, bucket, forced] of [
      ["https://s3.eu-west-1.amazonaws.com", "logs", true],
      ["http://127.0.0.1:7480", "logs", false],
      ["http://[::1]:7480", "logs", false],
      ["https://s3.eu-west-1.amazonaws.com", "my.logs", false],
    ] as const) {
      const target = s3Target(new URL(endpoint), bucket, forced);
      assert.equal(target.pathOf("k"), `/${bucket}/k`, endpoint);
      assert.equal(target.host, new URL(endpoint).host);
    }
    assert.equal(s3Target(new URL("http://[::1]:7480"), "logs", false).hostname, "::1");
  });

  it("rejects with the S3 error code of an XML answer, which maps as the SDK's errors do", async () => {
    handler = (_request, response) => {
      response.statusCode = 404;
      response.end("<?xml version='1.0'?><Error><Code>NoSuchBucket</Code><Message>gone</Message></Error>");
    };
    const { requester } = requesterOf();
    try {
      const error = await requester.send({ operation: "GetObject", method: "GET", key: "k" }).catch((caught: unknown) => caught);
      assert.ok(error instanceof S3ResponseError);
      assert.equal(error.name, "NoSuchBucket");
      assert.equal(error.$metadata.httpStatusCode, 404);
      assert.equal(appErrorFromS3Error(error, context).code, "failed_precondition");
      handler = (_request, response) => {
        response.statusCode = 412;
        response.end();
      };
      const precondition = await requester
        .send({ operation: "PutObject", method: "PUT", key: "k", body: new Uint8Array(1) })
        .catch((caught: unknown) => caught);
      assert.equal((precondition as S3ResponseError).name, "PreconditionFailed");
    } finally {
      requester.close();
    }
  });

  it("tries a 503 once more and counts both attempts; a 404 is not retried", async () => {
    let calls = 0;
    handler = (_request, response) => {
      calls += 1;
      response.statusCode = calls === 1 ? 503 : 200;
      response.end();
    };
    const { requester, stats } = requesterOf();
    try {
      await requester.send({ operation: "HeadObject", method: "HEAD", key: "k" });
      assert.equal(stats.requests, 2);
      handler = (_request, response) => {
        response.statusCode = 404;
        response.end();
      };
      const error = await requester.send({ operation: "HeadObject", method: "HEAD", key: "k" }).catch((caught: unknown) => caught);
      assert.equal(appErrorFromS3Error(error, context).code, "not_found");
      assert.equal(stats.requests, 3);
    } finally {
      requester.close();
    }
  });

  it("gives up on a silent server after the request timeout on every attempt: unavailable", async () => {
    handler = () => undefined;
    const { requester, stats } = requesterOf({ requestTimeoutMs: 150, maxAttempts: 2 });
    try {
      const started = Date.now();
      const error = await requester.send({ operation: "GetObject", method: "GET", key: "k" }).catch((caught: unknown) => caught);
      assert.equal(appErrorFromS3Error(error, context).code, "unavailable");
      assert.equal(stats.requests, 2);
      assert.ok(Date.now() - started < 2_000, "timed out within the budget");
    } finally {
      requester.close();
    }
  });

  it("gives up on a server that never completes a connection after the connection timeout, not the request's", async () => {
    // A listener whose process never accepts (its thread blocked) and whose accept queue is full: the
    // kernel drops further SYNs, so a connection stays pending, as with a host that does not answer.
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const s = require("node:net").createServer().listen({ port: 0, host: "127.0.0.1", backlog: 1 }, () => {
           process.stdout.write(s.address().port + "\\n");
           Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30000);
         });`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const fillers: Socket[] = [];
    try {
      const [chunk] = (await once(child.stdout, "data")) as [Buffer];
      const port = Number(chunk.toString().trim());
      for (let index = 0; index < 4; index++) fillers.push(connect(port, "127.0.0.1").on("error", () => undefined));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { requester, stats } = requesterOf({ endpoint: `http://127.0.0.1:${String(port)}`, connectionTimeoutMs: 200, requestTimeoutMs: 10_000 });
      try {
        const started = Date.now();
        const error = await requester.send({ operation: "GetObject", method: "GET", key: "k" }).catch((caught: unknown) => caught);
        assert.match((error as Error).message, /no connection within 200 ms/);
        assert.equal(appErrorFromS3Error(error, context).code, "unavailable");
        assert.equal(stats.requests, 2, "a connection timeout is tried again");
        assert.ok(Date.now() - started < 3_000, `gave up in ${String(Date.now() - started)} ms, long before the request timeout`);
      } finally {
        requester.close();
      }
    } finally {
      for (const filler of fillers) filler.destroy();
      child.kill("SIGKILL");
    }
  });

  it("ends a request at once when its signal aborts: cancelled, not retried", async () => {
    handler = () => undefined;
    const { requester, stats } = requesterOf({ requestTimeoutMs: 5_000 });
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const error = await requester.send({ operation: "GetObject", method: "GET", key: "k", signal: controller.signal }).catch((caught: unknown) => caught);
      assert.equal(appErrorFromS3Error(error, context, controller.signal).code, "cancelled");
      assert.equal(stats.requests, 1);
    } finally {
      requester.close();
    }
  });
});
