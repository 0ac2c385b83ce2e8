// The echo service as a process of its own (started like `loupe serve`: node with tsx), so its memory is
// measured the same way. Prints {"echo":<port>} once serving; stops on SIGTERM.
//
// With LOUPE_BENCH_ECHO_STORE=1 and an archive's environment (for the S3 floor: s3ProcessEnv's), each
// call is first stored whole under a key of its own by the archive's own store, built as an archive process
// builds it (acknowledged once stored) — the simplest durable stand-in for a distributed Project: moving the
// bytes and storing them once.
import type { ArchiveStore } from "@loupe/archive-store";
import { startEchoServer } from "./echo-server.js";

const store = process.env["LOUPE_BENCH_ECHO_STORE"] === "1" ? await archiveStore() : undefined;
let next = 0;
const server = await startEchoServer(0, store === undefined ? undefined : async (bytes) => void (await store.put(`floor/${String(next++)}`, bytes)));
console.log(JSON.stringify({ echo: server.port }));
process.once("SIGTERM", () => {
  void server.stop().then(() => process.exit(0));
});

// Loaded only when storing: the bare echo's memory (the memory bench's baseline) stays without the archive.
async function archiveStore(): Promise<ArchiveStore> {
  const { createArchiveStore, loadConfig } = await import("@loupe/archive");
  return createArchiveStore(loadConfig(process.env));
}
