// The embedded archive's two local backends side by side: the objects of one save (three index entries,
// the content, its line index, the record), put as the archive's Put puts them (deferred, then one sync
// of them all) and acknowledged only once durable — the file store (files placed, one journal line
// fsynced) against the LMDB store (one database; commits flushed). One save at a time, then 32 at once;
// the two take turns round by round, so the machine's noise falls on both alike. Prints p50/p90 per save
// and saves per second, with LMDB's ratio to the file store.
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileArchiveStore, createLmdbArchiveStore, type ArchiveStore } from "@loupe/archive-store";
import { cell, quantile } from "./support/stats.js";

const SAVES = Number(process.env["LOUPE_BENCH_SAVES"] ?? 320);
const WARMUP_ROUNDS = 3;

type Objects = Array<{ key: string; body: Uint8Array; ifAbsent: boolean }>;

/** One save's objects, keyed as the archive keys them (unique content each time). */
function saveObjects(index: number, bytes: number): Objects {
  const content = Buffer.from(randomBytes(bytes / 2).toString("hex"));
  const sha = createHash("sha256").update(content).digest("hex");
  const id = `r_${sha.slice(0, 16)}${String(index)}`;
  const json = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value));
  return [
    { key: `tenants/local/refs/${sha}/${id}`, body: new Uint8Array(0), ifAbsent: false },
    { key: `tenants/local/sessions/bench/${id}`, body: new Uint8Array(0), ifAbsent: false },
    { key: `tenants/local/expiry/${String(20261202 + (index % 7))}/${id}`, body: json({ sessionId: "bench", revision: `sha256:${sha}` }), ifAbsent: false },
    { key: `tenants/local/blobs/${sha.slice(0, 2)}/${sha}`, body: content, ifAbsent: true },
    {
      key: `tenants/local/lines/${sha.slice(0, 2)}/${sha}`,
      body: json({ lineCount: bytes / 64, every: 64, offsets: Array.from({ length: 64 }, (_, line) => line * 64) }),
      ifAbsent: true,
    },
    {
      key: `tenants/local/records/${id}`,
      body: json({ resultId: id, revision: `sha256:${sha}`, sessionId: "bench", toolName: "bash", sizeBytes: bytes }),
      ifAbsent: false,
    },
  ];
}

/** Puts a save's objects in the Put's order (entries, content and index, record), deferred, then syncs them. */
async function save(store: ArchiveStore, objects: Objects): Promise<void> {
  const put = ({ key, body, ifAbsent }: Objects[number]) => store.put(key, body, { ifAbsent, deferSync: true });
  await Promise.all(objects.slice(0, 3).map(put));
  await Promise.all(objects.slice(3, 5).map(put));
  await put(objects[5]!);
  await store.sync?.(objects.map(({ key }) => key));
}

const backends = [
  { name: "files + journal", create: (directory: string) => createFileArchiveStore({ directory }) },
  { name: "LMDB", create: (directory: string) => createLmdbArchiveStore({ directory }) },
] as const;

console.log(`(5) archive backends: ${String(SAVES)} saves of 6 objects each, acknowledged once durable, the backends taking turns`);
console.log("size   at once   backend            p50 ms    p90 ms   saves/s   LMDB/files (p50, saves/s)");
for (const bytes of [4 * 1024, 64 * 1024]) {
  for (const concurrent of [1, 32]) {
    const directory = await mkdtemp(join(tmpdir(), "loupe-bench-engines-"));
    const stores = backends.map((backend, index) => backend.create(join(directory, String(index))));
    const samples = backends.map(() => [] as number[]);
    const busy = backends.map(() => 0);
    let index = 0;
    try {
      for (let round = 0; round < WARMUP_ROUNDS + SAVES / concurrent; round++) {
        for (const [which, store] of stores.entries()) {
          const batch = Array.from({ length: concurrent }, () => saveObjects(index++, bytes));
          const started = performance.now();
          const durations = await Promise.all(
            batch.map(async (objects) => {
              const begun = performance.now();
              await save(store, objects);
              return performance.now() - begun;
            }),
          );
          if (round < WARMUP_ROUNDS) continue;
          busy[which]! += performance.now() - started;
          samples[which]!.push(...durations);
        }
      }
      const rate = (which: number): number => samples[which]!.length / (busy[which]! / 1000);
      for (const [which, backend] of backends.entries()) {
        const ratio = which === 0 ? "" : `${(quantile(samples[1]!, 0.5) / quantile(samples[0]!, 0.5)).toFixed(2)}×, ${(rate(1) / rate(0)).toFixed(2)}×`;
        console.log(
          `${`${String(bytes / 1024)} KB`.padEnd(6)} ${String(concurrent).padStart(7)}   ${backend.name.padEnd(16)} ${cell(quantile(samples[which]!, 0.5), 8, 2)} ${cell(quantile(samples[which]!, 0.9), 9, 2)} ${cell(rate(which), 9, 0)}   ${ratio}`,
        );
      }
    } finally {
      for (const store of stores) await store.close?.();
      await rm(directory, { recursive: true, force: true });
    }
  }
}
