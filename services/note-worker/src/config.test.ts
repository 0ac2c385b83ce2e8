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
      (error: unknown) => isAppError(error) && ["LOUPE_NATS_URL", "LOUPE_NOTE_WORKER_DURABLE", "LOUPE_NOTE_WORKER_ACK_WAIT_MS"].every((name) => error.message.includes(name)),
    );
  });
});
