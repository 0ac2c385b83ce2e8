import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import type { Ledger, LedgerEntry, LedgerKind } from "./ledger.js";
import { createLocalLedger } from "./local-ledger.js";
import { createRedisLedger } from "./redis-ledger.js";

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = 1_800_000_000_000;

const entry = (index: number, overrides: Partial<LedgerEntry> = {}): LedgerEntry => ({
  timeMs: T0 + index * 10,
  kind: (["projection", "cut", "recovery", "compaction", "deletion"] as const)[index % 5] as LedgerKind,
  source: index % 2 === 0 ? "app-a" : "app-b",
  sessionId: index % 3 === 0 ? "s1" : "s2",
  resultId: `r_${String(index)}`,
  ruleVersion: "",
  projectorVersion: "0.3.0",
  tokensBefore: 1000 + index,
  tokensAfter: 100,
  handleJson: JSON.stringify({ result_id: `r_${String(index)}` }),
  detail: `entry ${String(index)}`,
  ...overrides,
});

/** Every page of a query, cursor after cursor. */
async function all(ledger: Ledger, tenant: string, query: Parameters<Ledger["list"]>[1]): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  let cursor = "";
  do {
    const page = await ledger.list(tenant, { ...query, cursor });
    assert.ok(page.entries.length <= query.limit);
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor !== "");
  return entries;
}

const scratch: string[] = [];
after(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

const adapters: Array<{ name: string; make: (now: () => number) => Promise<Ledger> }> = [
  { name: "local, in memory", make: async (now) => createLocalLedger({ retentionMsFor: () => DAY_MS, nowMs: now }) },
  {
    name: "local, on files",
    make: async (now) => {
      const directory = await mkdtemp(join(tmpdir(), "loupe-ledger-"));
      scratch.push(directory);
      return createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: now });
    },
  },
  {
    name: "Redis Streams (real Redis)",
    make: async (now) => createRedisLedger({ url: "redis://127.0.0.1:6379", keyPrefix: `test-${randomUUID()}:`, retentionMsFor: () => DAY_MS, nowMs: now }),
  },
];

for (const adapter of adapters) {
  describe(`ledger: ${adapter.name}`, () => {
    it("lists newest first, page by page, filtered by session, source, kinds and time, per tenant", async () => {
      const ledger = await adapter.make(() => T0 + 1000);
      try {
        for (let index = 0; index < 25; index++) await ledger.append("team", entry(index));
        await ledger.append("other-team", entry(99));
        const everything = await all(ledger, "team", { limit: 4 });
        assert.deepEqual(
          everything.map((each) => each.resultId),
          Array.from({ length: 25 }, (_, index) => `r_${String(24 - index)}`),
        );
        assert.deepEqual(everything[0], entry(24), "every field back as written");
        const s1 = await all(ledger, "team", { sessionId: "s1", limit: 3 });
        assert.deepEqual(
          s1.map((each) => each.resultId),
          ["r_24", "r_21", "r_18", "r_15", "r_12", "r_9", "r_6", "r_3", "r_0"],
        );
        const cutsOfA = await all(ledger, "team", { source: "app-a", kinds: ["cut", "deletion"], limit: 2 });
        assert.ok(cutsOfA.length > 0 && cutsOfA.every((each) => each.source === "app-a" && (each.kind === "cut" || each.kind === "deletion")));
        const window = await all(ledger, "team", { sinceMs: T0 + 50, untilMs: T0 + 100, limit: 10 });
        assert.deepEqual(
          window.map((each) => each.resultId),
          ["r_10", "r_9", "r_8", "r_7", "r_6", "r_5"],
        );
        assert.deepEqual(
          (await all(ledger, "other-team", { limit: 10 })).map((each) => each.resultId),
          ["r_99"],
          "tenants never see each other's entries",
        );
        await assert.rejects(ledger.list("team", { limit: 5, cursor: "not-a-cursor" }), (error) => isAppError(error) && error.code === "invalid_argument");
        assert.equal(await ledger.deleteTenant("team"), 25);
        assert.deepEqual((await ledger.list("team", { limit: 5 })).entries, []);
        assert.equal((await ledger.list("other-team", { limit: 5 })).entries.length, 1);
      } finally {
        await ledger.close();
      }
    });

    it("drops entries older than the tenant's retention as new ones come", async () => {
      let now = T0;
      const ledger = await adapter.make(() => now);
      try {
        await ledger.append("team", entry(0, { timeMs: T0 }));
        now = T0 + 2 * DAY_MS;
        await ledger.append("team", entry(1, { timeMs: now }));
        // Redis trims approximately (whole nodes), but never lists what it left.
        assert.deepEqual(
          (await ledger.list("team", { limit: 10 })).entries.map((each) => each.resultId),
          ["r_1"],
        );
      } finally {
        await ledger.deleteTenant("team");
        await ledger.close();
      }
    });

    it("never lists an entry past the retention, though none came since it expired", async () => {
      let now = T0;
      const ledger = await adapter.make(() => now);
      try {
        await ledger.append("team", entry(0, { timeMs: T0 }));
        await ledger.append("team", entry(1, { timeMs: T0 + DAY_MS / 2 }));
        now = T0 + DAY_MS + 1;
        assert.deepEqual(
          (await ledger.list("team", { limit: 10 })).entries.map((each) => each.resultId),
          ["r_1"],
        );
        assert.deepEqual(
          (await ledger.list("team", { limit: 10, sinceMs: T0 })).entries.map((each) => each.resultId),
          ["r_1"],
          "nor with an earlier since",
        );
      } finally {
        await ledger.deleteTenant("team");
        await ledger.close();
      }
    });
  });
}

describe("ledger: local, on files", () => {
  it("keeps every entry across a restart, and a line cut short by a crash loses only itself", async () => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-ledger-"));
    scratch.push(directory);
    const first = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => T0 });
    for (let index = 0; index < 5; index++) await first.append("team", entry(index));
    await first.close();
    const file = join(directory, `${Buffer.from("team").toString("base64url")}.jsonl`);
    const { appendFile } = await import("node:fs/promises");
    await appendFile(file, '{"id":"1800000000999-0","entry":{"timeMs":');
    const again = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => T0 });
    assert.equal((await all(again, "team", { limit: 2 })).length, 5);
    assert.ok((await readFile(file, "utf8")).startsWith('{"id":"1800000000000-0"'));
    // The next entry starts a line of its own: the cut line does not swallow it.
    await again.append("team", entry(5));
    await again.close();
    const third = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => T0 });
    assert.deepEqual(
      (await all(third, "team", { limit: 10 })).map((each) => each.resultId),
      ["r_5", "r_4", "r_3", "r_2", "r_1", "r_0"],
    );
    await third.close();
  });

  it("writes entries added at once each once, in order, and they all survive a restart", async () => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-ledger-"));
    scratch.push(directory);
    const first = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => T0 });
    await Promise.all(Array.from({ length: 300 }, (_, index) => first.append("team", entry(index, { timeMs: T0 }))));
    await first.close();
    const file = join(directory, `${Buffer.from("team").toString("base64url")}.jsonl`);
    const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
    assert.deepEqual(
      lines.map((line) => (JSON.parse(line) as { id: string }).id),
      Array.from({ length: 300 }, (_, index) => `${String(T0)}-${String(index)}`),
    );
    const again = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => T0 });
    assert.equal((await all(again, "team", { limit: 100 })).length, 300);
    await again.close();
  });

  it("after trimming rewrites the file, later entries are written to the new file", async () => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-ledger-"));
    scratch.push(directory);
    let now = T0;
    const first = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => now });
    for (let index = 0; index < 1_100; index++) await first.append("team", entry(index, { timeMs: T0 }));
    now = T0 + 2 * DAY_MS;
    // Trimming drops 1,100 lines: the file is rewritten with this entry alone.
    await first.append("team", entry(2_000, { timeMs: now }));
    for (let index = 2_001; index < 2_004; index++) await first.append("team", entry(index, { timeMs: now }));
    await first.close();
    const again = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => now });
    assert.deepEqual(
      (await all(again, "team", { limit: 10 })).map((each) => each.resultId),
      ["r_2003", "r_2002", "r_2001", "r_2000"],
    );
    await again.close();
  });

  it("deleting a tenant removes its file; entries after that start a new one", async () => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-ledger-"));
    scratch.push(directory);
    const first = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => T0 });
    for (let index = 0; index < 3; index++) await first.append("team", entry(index));
    assert.equal(await first.deleteTenant("team"), 3);
    await first.append("team", entry(7));
    await first.close();
    const again = createLocalLedger({ directory, retentionMsFor: () => DAY_MS, nowMs: () => T0 });
    assert.deepEqual(
      (await all(again, "team", { limit: 10 })).map((each) => each.resultId),
      ["r_7"],
    );
    await again.close();
  });
});
