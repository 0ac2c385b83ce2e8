import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { DEFAULT_NATS_URL, loadConfig } from "./config.js";

describe("note-worker loadConfig()", () => {
  it("defaults to the local NATS and a shared durable", () => {
    const config = loadConfig({});
    assert.equal(config.natsUrl, DEFAULT_NATS_URL);
    assert.equal(config.durableName, "note-worker");
  });

  it("reports every bad variable at once", () => {
    assert.throws(
      () => loadConfig({ LOUPE_NATS_URL: "redis://x", LOUPE_NOTE_WORKER_DURABLE: "a.b", LOUPE_NOTE_WORKER_ACK_WAIT_MS: "5" }),
      (error: unknown) =>
        isAppError(error) && ["LOUPE_NATS_URL", "LOUPE_NOTE_WORKER_DURABLE", "LOUPE_NOTE_WORKER_ACK_WAIT_MS"].every((name) => error.message.includes(name)),
    );
  });

  it("reads the archive, Redis, note and summarizer settings, refusing an unknown driver", () => {
    const config = loadConfig({
      LOUPE_ARCHIVE_ADDR: "archive:50052",
      LOUPE_REDIS_URL: "redis://redis:6379",
      LOUPE_NOTE_MAX_TOKENS: "3000",
      LOUPE_SUMMARIZER_DRIVER: "openai",
      LOUPE_SUMMARIZER_KEY_REF: "env:OPENAI_API_KEY",
    });
    assert.deepEqual(
      [config.archiveAddress, config.redisUrl, config.maxNoteTokens, config.summarizer.driver, config.summarizer.keyRef],
      ["archive:50052", "redis://redis:6379", 3000, "openai", "env:OPENAI_API_KEY"],
    );
    assert.equal(loadConfig({}).redisUrl, undefined);
    assert.throws(
      () => loadConfig({ LOUPE_SUMMARIZER_DRIVER: "gemini", LOUPE_NOTE_LEASE_MS: "5" }),
      (error: unknown) => isAppError(error) && /LOUPE_SUMMARIZER_DRIVER/.test(error.message) && /LOUPE_NOTE_LEASE_MS/.test(error.message),
    );
  });
});
