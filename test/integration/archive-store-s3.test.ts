import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import {
  AbortMultipartUploadCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from "@aws-sdk/client-s3";
import { createS3ArchiveStore } from "@loupe/archive-store/s3";
import type { S3ArchiveStore, S3ArchiveStoreOptions } from "@loupe/archive-store/s3";
import { isAppError } from "@loupe/errors";
import { createTestS3Client, s3TestEnv } from "@loupe/testing";

// The test S3 server (Ceph RGW; scripts/servers/ensure-servers.sh starts it).
const S3 = s3TestEnv();
const RGW = {
  endpoint: S3.endpoint,
  region: S3.region,
  forcePathStyle: true,
  credentials: { accessKeyId: S3.accessKeyId, secretAccessKey: S3.secretAccessKey },
} as const;

const MIB = 1024 * 1024;
const encoder = new TextEncoder();

function hasCode(code: string): (error: unknown) => boolean {
  return (error) => isAppError(error) && error.code === code;
}

/** Deterministic bytes: byte i of a body is a function of (seed, i), so any range can be checked on its own. */
function patternByte(seed: number, index: number): number {
  return (index * 31 + seed * 7 + (index >> 13)) & 0xff;
}

function patternBytes(seed: number, start: number, end: number): Uint8Array {
  const bytes = new Uint8Array(end - start);
  for (let index = start; index < end; index += 1) bytes[index - start] = patternByte(seed, index);
  return bytes;
}

async function* patternStream(seed: number, sizeBytes: number, chunkBytes = 256 * 1024): AsyncGenerator<Uint8Array> {
  // Odd chunk sizes make part boundaries fall inside chunks.
  for (let offset = 0; offset < sizeBytes; offset += chunkBytes + 1) {
    yield patternBytes(seed, offset, Math.min(sizeBytes, offset + chunkBytes + 1));
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function collect(keys: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const key of keys) all.push(key);
  return all;
}

/** A fresh bucket for this run, created through the store, emptied and deleted on dispose. */
async function useBucket(extra: Partial<S3ArchiveStoreOptions> = {}) {
  const bucket = `loupe-it-archive-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
  const store = createS3ArchiveStore({ ...RGW, bucket, createBucketIfMissing: true, ...extra });
  await store.ensureBucket();
  const admin = createTestS3Client(S3);
  return {
    bucket,
    store,
    admin,
    async [Symbol.asyncDispose]() {
      const uploads = await admin.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      for (const upload of uploads.Uploads ?? []) {
        await admin.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
      }
      for (let page = await admin.send(new ListObjectsV2Command({ Bucket: bucket })); ;) {
        await Promise.all((page.Contents ?? []).map((object) => admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }))));
        if (page.IsTruncated !== true) break;
        page = await admin.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: page.NextContinuationToken }));
      }
      await admin.send(new DeleteBucketCommand({ Bucket: bucket }));
      admin.destroy();
      store.close();
    },
  };
}

describe("createS3ArchiveStore() against RGW", () => {
  let fixture: Awaited<ReturnType<typeof useBucket>>;
  let store: S3ArchiveStore;
  before(async () => {
    fixture = await useBucket({ listPageSize: 100 });
    store = fixture.store;
  });
  after(async () => fixture[Symbol.asyncDispose]());

  it("puts and gets a whole object", async () => {
    assert.equal(await store.put("t/small", encoder.encode("hello world"), { contentType: "text/plain" }), "created");
    assert.equal(new TextDecoder().decode(await store.get("t/small")), "hello world");
    assert.deepEqual(await store.stat("t/small"), { sizeBytes: 11 });
    assert.equal(await store.exists("t/small"), true);
    const head = await fixture.admin.send(new HeadObjectCommand({ Bucket: fixture.bucket, Key: "t/small" }));
    assert.equal(head.ContentType, "text/plain");
  });

  it("reads a 100-byte range of a 5 MB object receiving only those bytes", async () => {
    const sizeBytes = 5 * 1000 * 1000;
    await store.put("t/five", patternBytes(1, 0, sizeBytes));
    const before = store.stats.bytesReceived;
    const range = await store.get("t/five", { range: { start: 2_500_000, end: 2_500_100 } });
    assert.equal(store.stats.bytesReceived - before, 100);
    assert.deepEqual(range, patternBytes(1, 2_500_000, 2_500_100));
    assert.deepEqual(await store.get("t/five", { range: { start: sizeBytes - 10, end: sizeBytes + 500 } }), patternBytes(1, sizeBytes - 10, sizeBytes));
    assert.equal((await store.get("t/five", { range: { start: sizeBytes, end: sizeBytes + 5 } })).byteLength, 0);
    assert.equal((await store.get("t/five", { range: { start: sizeBytes + 100, end: sizeBytes + 200 } })).byteLength, 0);
    assert.equal((await store.get("t/five", { range: { start: 7, end: 7 } })).byteLength, 0);
    const whole = store.stats.bytesReceived;
    assert.equal(sha256(await store.get("t/five")), sha256(patternBytes(1, 0, sizeBytes)));
    assert.equal(store.stats.bytesReceived - whole, sizeBytes);
  });

  it("uploads a 20 MB stream of unknown length in parts", async () => {
    const sizeBytes = 20 * MIB + 12_345;
    assert.equal(await store.put("t/stream", patternStream(2, sizeBytes)), "created");
    assert.deepEqual(await store.stat("t/stream"), { sizeBytes });
    const head = await fixture.admin.send(new HeadObjectCommand({ Bucket: fixture.bucket, Key: "t/stream" }));
    assert.match(head.ETag ?? "", /-3"?$/, "three 8 MiB parts");
    for (const start of [0, 8 * MIB - 3, 16 * MIB - 1, sizeBytes - 7]) {
      assert.deepEqual(await store.get("t/stream", { range: { start, end: start + 10 } }), patternBytes(2, start, Math.min(sizeBytes, start + 10)));
    }
    assert.equal(sha256(await store.get("t/stream")), sha256(patternBytes(2, 0, sizeBytes)));
  });

  it("streams a body of known size in one request", async () => {
    const sizeBytes = 12 * MIB + 1;
    assert.equal(await store.put("t/sized", patternStream(3, sizeBytes), { sizeBytes }), "created");
    const head = await fixture.admin.send(new HeadObjectCommand({ Bucket: fixture.bucket, Key: "t/sized" }));
    assert.doesNotMatch(head.ETag ?? "", /-\d+"?$/, "not multipart");
    assert.equal(sha256(await store.get("t/sized")), sha256(patternBytes(3, 0, sizeBytes)));
    await assert.rejects(store.put("t/sized-short", patternStream(3, sizeBytes - 1), { sizeBytes }), hasCode("invalid_argument"));
    await assert.rejects(store.put("t/sized-long", patternStream(3, sizeBytes + 1), { sizeBytes }), hasCode("invalid_argument"));
    assert.equal(await store.exists("t/sized-short"), false);
    assert.equal(await store.exists("t/sized-long"), false);
  });

  it("sends a body with its known SHA-256 and refuses one that does not match it, storing nothing", async () => {
    const body = patternBytes(5, 0, 64 * 1024);
    const requests = store.stats.requests;
    assert.equal(await store.put("t/hashed", body, { ifAbsent: true, sha256Hex: sha256(body) }), "created");
    assert.equal(store.stats.requests, requests + 1, "one request");
    assert.equal(sha256(await store.get("t/hashed")), sha256(body));
    const other = patternBytes(6, 0, 64 * 1024);
    await assert.rejects(store.put("t/hashed-wrong", other, { sha256Hex: sha256(body) }), hasCode("invalid_argument"));
    assert.equal(await store.exists("t/hashed-wrong"), false);
    await assert.rejects(store.put("t/hashed-bad", body, { sha256Hex: "ABC" }), hasCode("invalid_argument"));
    assert.equal(await store.exists("t/hashed-bad"), false);
  });

  it("creates once with ifAbsent, then answers exists and keeps the first body", async () => {
    assert.equal(await store.put("t/once", encoder.encode("first"), { ifAbsent: true }), "created");
    assert.equal(await store.put("t/once", encoder.encode("second"), { ifAbsent: true }), "exists");
    assert.equal(await store.put("t/once", patternStream(4, 9 * MIB), { ifAbsent: true }), "exists");
    assert.equal(await store.put("t/once", patternStream(4, 9 * MIB), { ifAbsent: true, sizeBytes: 9 * MIB }), "exists");
    assert.equal(new TextDecoder().decode(await store.get("t/once")), "first");
  });

  it("lets exactly one of 10 concurrent ifAbsent puts create the key", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, index) => store.put("t/race", encoder.encode(`body ${String(index)}`), { ifAbsent: true })),
    );
    assert.equal(outcomes.filter((outcome) => outcome === "created").length, 1);
    const winner = outcomes.indexOf("created");
    assert.equal(new TextDecoder().decode(await store.get("t/race")), `body ${String(winner)}`);
  });

  it("lets exactly one of 3 concurrent streamed ifAbsent puts of known size create the key", async () => {
    const sizeBytes = 9 * MIB;
    const outcomes = await Promise.all([5, 6, 7].map((seed) => store.put("t/race-big", patternStream(seed, sizeBytes), { ifAbsent: true, sizeBytes })));
    assert.equal(outcomes.filter((outcome) => outcome === "created").length, 1);
    const seed = [5, 6, 7][outcomes.indexOf("created")] ?? 0;
    assert.equal(sha256(await store.get("t/race-big")), sha256(patternBytes(seed, 0, sizeBytes)));
  });

  it("lists more than 1000 keys page by page, in order", async () => {
    const keys = Array.from({ length: 1050 }, (_, index) => `list/k${String(index).padStart(5, "0")}`);
    for (let offset = 0; offset < keys.length; offset += 50) {
      await Promise.all(keys.slice(offset, offset + 50).map((key) => store.put(key, encoder.encode(key))));
    }
    await store.put("listing-neighbour", encoder.encode("x"));
    const requestsBefore = store.stats.requests;
    assert.deepEqual(await collect(store.list("list/")), keys);
    assert.equal(store.stats.requests - requestsBefore, 11, "1050 keys at 100 per page");
    assert.deepEqual(await collect(store.list("list/k0104")), keys.slice(1040, 1050));
    assert.deepEqual(await collect(store.list("nothing/")), []);
  });

  it("lists the folders directly under a prefix as common prefixes, page by page", async () => {
    const folders = Array.from({ length: 120 }, (_, index) => `folders/d${String(index).padStart(3, "0")}/`);
    for (let offset = 0; offset < folders.length; offset += 40) {
      await Promise.all(folders.slice(offset, offset + 40).map((folder) => store.put(`${folder}key`, encoder.encode(folder))));
    }
    await store.put("folders/d000/more/key", encoder.encode("x"));
    await store.put("folders/a-b/key", encoder.encode("x"));
    await store.put("folders/plain", encoder.encode("x"));
    const requestsBefore = store.stats.requests;
    assert.deepEqual(await collect(store.listFolders("folders/")), ["folders/a-b/", ...folders]);
    assert.equal(store.stats.requests - requestsBefore, 2, "121 folders at 100 per page");
    assert.deepEqual(await collect(store.listFolders("folders/d000/")), ["folders/d000/more/"]);
    assert.deepEqual(await collect(store.listFolders("folders/d001/")), []);
    await assert.rejects(collect(store.listFolders("folders")), hasCode("invalid_argument"));
  });

  it("answers not_found for a missing key; deleting it is fine", async () => {
    await assert.rejects(store.get("t/missing"), hasCode("not_found"));
    await assert.rejects(store.get("t/missing", { range: { start: 0, end: 10 } }), hasCode("not_found"));
    await assert.rejects(store.get("t/missing", { range: { start: 3, end: 3 } }), hasCode("not_found"));
    assert.equal(await store.stat("t/missing"), undefined);
    assert.equal(await store.exists("t/missing"), false);
    await store.delete("t/missing");
    await store.put("t/doomed", encoder.encode("x"));
    await store.delete("t/doomed");
    assert.equal(await store.exists("t/doomed"), false);
  });

  it("refuses malformed keys before calling S3", async () => {
    const requestsBefore = store.stats.requests;
    for (const key of ["../x", "/abs", "a//b", "a/.b", ""]) {
      await assert.rejects(store.get(key), hasCode("invalid_argument"), key);
    }
    assert.equal(store.stats.requests, requestsBefore);
  });

  it("cancels a multipart upload on abort and leaves no parts behind", async () => {
    const controller = new AbortController();
    async function* slowBody(): AsyncGenerator<Uint8Array> {
      yield* patternStream(8, 17 * MIB);
      controller.abort();
      await new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    }
    await assert.rejects(store.put("t/aborted", slowBody(), { signal: controller.signal }), hasCode("cancelled"));
    assert.equal(await store.exists("t/aborted"), false);
    const uploads = await fixture.admin.send(new ListMultipartUploadsCommand({ Bucket: fixture.bucket }));
    assert.deepEqual(uploads.Uploads ?? [], []);
  });

  it("reports a missing bucket as failed_precondition", async () => {
    const missing = createS3ArchiveStore({ ...RGW, bucket: `loupe-it-missing-${randomBytes(4).toString("hex")}` });
    try {
      await assert.rejects(missing.get("k"), hasCode("failed_precondition"));
    } finally {
      missing.close();
    }
  });
});

describe("createS3ArchiveStore() against a closed port", () => {
  it("fails with unavailable naming the endpoint within 3 s", async () => {
    const dead = createS3ArchiveStore({ ...RGW, endpoint: "http://127.0.0.1:1", bucket: "loupe-it-dead" });
    try {
      for (const call of [() => dead.get("k"), () => dead.put("k", encoder.encode("x"), { ifAbsent: true }), () => collect(dead.list(""))]) {
        const started = Date.now();
        await assert.rejects(call(), (error: unknown) => {
          assert.ok(isAppError(error) && error.code === "unavailable", String(error));
          assert.match(error.message, /endpoint=http:\/\/127\.0\.0\.1:1/);
          return true;
        });
        assert.ok(Date.now() - started < 3000, `took ${String(Date.now() - started)} ms`);
      }
    } finally {
      dead.close();
    }
  });
});
