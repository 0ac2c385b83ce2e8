import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createFileArchiveStore, revisionOf } from "@loupe/archive-store";
import { create } from "@bufbuild/protobuf";
import { isAppError } from "@loupe/errors";
import { ReadRequestSchema, StatRequestSchema } from "@loupe/proto";
import { createArchiveHandlers } from "./archive-handlers.js";
import { createLineIndexCache } from "./line-index-cache.js";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("retention", () => {
  it("keeps each tenant's results for its own time; Stat reports the expiry; an expired result answers NOT_FOUND saying so", async () => {
    const directory = await mkdtemp(join(tmpdir(), "loupe-retention-"));
    let now = Date.UTC(2026, 10, 29);
    const handlers = createArchiveHandlers({
      store: createFileArchiveStore({ directory }),
      indexCache: createLineIndexCache(),
      maxResultBytes: 1024 * 1024,
      retentionMsFor: (tenant) => (tenant === "short" ? 1 : 7) * DAY_MS,
      now: () => now,
    });
    const context = (tenant: string) => ({ metadata: { "x-loupe-tenant": tenant }, signal: new AbortController().signal, deadlineMs: undefined });
    const bytes = new TextEncoder().encode("line one\nline two\n");
    async function* requests(resultId: string) {
      yield { message: { case: "header" as const, value: { resultId, revision: revisionOf(bytes), sessionId: "s" } } } as never;
      yield { message: { case: "chunk" as const, value: bytes } } as never;
    }
    try {
      for (const tenant of ["short", "long"]) await handlers.put(requests(`r_${tenant}AAAAAAAAAAAAAAAAAA`), context(tenant));
      const stat = await handlers.stat(create(StatRequestSchema, { resultId: "r_shortAAAAAAAAAAAAAAAAAA" }), context("short"));
      assert.equal(Number(stat.record?.expiresAtMs), now + DAY_MS);
      now += 2 * DAY_MS;
      await assert.rejects(
        handlers.read(create(ReadRequestSchema, { resultId: "r_shortAAAAAAAAAAAAAAAAAA", startLine: 1 }), context("short")),
        (error: unknown) => isAppError(error) && error.code === "not_found" && /expired/.test(error.message),
      );
      const kept = await handlers.read(create(ReadRequestSchema, { resultId: "r_longAAAAAAAAAAAAAAAAAA", startLine: 1 }), context("long"));
      assert.equal(new TextDecoder().decode(kept.data), "line one\nline two\n");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
