// The echo service as a process of its own (started like `loupe serve`: node with tsx), so its memory is
// measured the same way. Prints {"echo":<port>} once serving; stops on SIGTERM.
//
// With LOUPE_BENCH_ECHO_BUCKET, each call is first PUT whole to that bucket of the test S3 server (a key of
// its own, through the archive's S3 store, acknowledged once stored) — the simplest durable stand-in for a
// distributed Project: moving the bytes and storing them once.
import type { ArchiveStore } from "@loupe/archive-store";
import { startEchoServer } from "./echo-server.js";

const bucket = process.env["LOUPE_BENCH_ECHO_BUCKET"];
const store = bucket === undefined ? undefined : await storeOf(bucket);
let next = 0;
const server = await startEchoServer(0, store === undefined ? undefined : async (bytes) => void (await store.put(`floor/${String(next++)}`, bytes)));
console.log(JSON.stringify({ echo: server.port }));
process.once("SIGTERM", () => {
  void server.stop().then(() => process.exit(0));
});

// Loaded only with a bucket: the bare echo's memory (the memory bench's baseline) stays without the S3 client.
async function storeOf(name: string): Promise<ArchiveStore> {
  const [{ createS3ArchiveStore }, { s3TestEnv }] = await Promise.all([import("@loupe/archive-store/s3"), import("@loupe/testing")]);
  const s3 = s3TestEnv();
  const created = createS3ArchiveStore({
    endpoint: s3.endpoint,
    region: s3.region,
    bucket: name,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await created.ensureBucket();
  return created;
}
