import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { loadConfig, startArchive, type ArchiveHandle } from "@loupe/archive";
import { createS3ArchiveStore, type S3ArchiveStore } from "@loupe/archive-store/s3";
import { createGrpcClient } from "@loupe/grpc";
import { ArchiveService } from "@loupe/proto";
import { createLogger } from "@loupe/runtime";
import { freePort, removeBucket, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { generatedLines, generatedLog, generatedRevision } from "../support/generated-log.js";

const MIB = 1024 * 1024;
const s3 = s3TestEnv();
const resultId = (): string => `r_${randomBytes(16).toString("base64url")}`;

async function* putRequests(id: string, revision: string, sizeBytes: number, body: AsyncIterable<Uint8Array>) {
  yield { message: { case: "header" as const, value: { resultId: id, revision, sessionId: "scale", sizeBytes: BigInt(sizeBytes) } } };
  for await (const chunk of body) yield { message: { case: "chunk" as const, value: chunk } };
}

describe("archive at scale, on Ceph RGW through gRPC", () => {
  const bucket = `loupe-scale-${randomUUID().slice(0, 8)}`;
  let store: S3ArchiveStore;
  let archive: ArchiveHandle;

  before(async () => {
    store = createS3ArchiveStore({
      endpoint: s3.endpoint,
      region: s3.region,
      bucket,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      createBucketIfMissing: true,
    });
    const config = loadConfig({
      LOUPE_ARCHIVE_BACKEND: "s3",
      LOUPE_S3_ENDPOINT: s3.endpoint,
      LOUPE_S3_BUCKET: bucket,
      LOUPE_GRPC_PORT: "0",
      LOUPE_MAX_RESULT_BYTES: String(128 * MIB),
    });
    archive = await startArchive(config, { logger: createLogger({ service: "test", level: "error" }), store, httpEndpoint: false });
  });
  after(async () => {
    await archive.stop();
    store.close();
    await removeBucket(s3, bucket);
  });

  it("recovers lines near the end of a 100 MB log moving < 1 MB from S3, index included", async () => {
    const size = 100 * MIB;
    const { revision, sizeBytes } = await generatedRevision(size, 1);
    const client = createGrpcClient(ArchiveService, `127.0.0.1:${String(archive.grpcPort)}`, { maxResultBytes: 128 * MIB });
    const id = resultId();
    const put = await client.put(putRequests(id, revision, sizeBytes, generatedLog(size, 1)));
    const lines = put.record?.lineCount ?? 0;
    assert.ok(lines > 500_000);
    const before = store.stats.bytesReceived;
    const read = await client.read({ resultId: id, startLine: lines - 20, endLine: lines });
    const received = store.stats.bytesReceived - before;
    assert.equal(Buffer.from(read.data).toString("utf8"), (await generatedLines(size, 1, lines - 20, lines)).text);
    assert.ok(received < MIB, `received ${String(received)} bytes from S3`);
    client.close();
  });
});

describe("archive Put across processes (one RGW bucket)", () => {
  const bucket = `loupe-idem-${randomUUID().slice(0, 8)}`;
  const processes: LoupeProcess[] = [];
  const ports: number[] = [];

  before(async () => {
    for (let index = 0; index < 4; index++) {
      const port = await freePort();
      ports.push(port);
      processes.push(
        startLoupeProcess(["archive"], {
          ...s3ProcessEnv(s3, bucket),
          LOUPE_GRPC_PORT: String(port),
          LOUPE_HTTP_PORT: "0",
          LOUPE_MAX_RESULT_BYTES: String(128 * MIB),
        }),
      );
    }
    await Promise.all(processes.map((child) => child.waitFor(/archive started/)));
  });
  after(async () => {
    await Promise.all(processes.map((child) => child.stop()));
    await removeBucket(s3, bucket);
  });

  it("stores one blob when four archive processes receive the same 12 MB content at once", async () => {
    const size = 12 * MIB;
    const { revision, sizeBytes } = await generatedRevision(size, 2);
    const answers = await Promise.all(
      ports.map(async (port) => {
        const client = createGrpcClient(ArchiveService, `127.0.0.1:${String(port)}`, { maxResultBytes: 128 * MIB });
        const answer = await client.put(putRequests(resultId(), revision, sizeBytes, generatedLog(size, 2)));
        client.close();
        return answer;
      }),
    );
    assert.equal(answers.filter((answer) => !answer.deduplicated).length, 1, "exactly one writer created the blob; the others met 412 or found it");
    const blobs = [];
    for await (const key of store_(bucket).list("v1/local/blobs/")) if (!key.endsWith(".lines")) blobs.push(key);
    assert.equal(blobs.length, 1);
  });

  it("keeps memory bounded with 20 concurrent 50 MB results", async () => {
    const size = 50 * MIB;
    const pid = processes[0]?.child.pid ?? 0;
    const revisions = await Promise.all(Array.from({ length: 20 }, (_, index) => generatedRevision(size, 100 + index)));
    const client = createGrpcClient(ArchiveService, `127.0.0.1:${String(ports[0])}`, { maxResultBytes: 128 * MIB });
    await Promise.all(
      revisions.map(({ revision, sizeBytes }, index) => client.put(putRequests(resultId(), revision, sizeBytes, generatedLog(size, 100 + index)))),
    );
    client.close();
    const status = await readFile(`/proc/${String(pid)}/status`, "utf8");
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? "0");
    console.log(`archive peak RSS with 20 × 50 MB concurrent puts: ${(peakKb / 1024).toFixed(0)} MiB (1,000 MiB streamed)`);
    assert.ok(peakKb > 0 && peakKb < 512 * 1024, `peak RSS ${String(peakKb)} kB`);
  });
});

function store_(bucket: string): S3ArchiveStore {
  return createS3ArchiveStore({
    endpoint: s3.endpoint,
    region: s3.region,
    bucket,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}
