import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { isAppError } from "@loupe/errors";
import { createJetStreamBus } from "@loupe/events/jetstream";
// The shared behaviour table; see the report: a "./testing" export of @loupe/events would replace this path.
import { describeBusContract } from "@loupe/events/testing";

const SERVERS = "127.0.0.1:4222";

const admin = await connect({ servers: SERVERS, name: "loupe-events-test-admin" });
const jsm = await jetstreamManager(admin);
after(() => admin.drain());

describeBusContract("jetstream", {
  open: () => createJetStreamBus({ servers: SERVERS, name: "loupe-events-test" }),
  ackWaitMs: 1_000,
  persistent: true,
  removeStream: async (name) => {
    await jsm.streams.delete(name).catch((error: unknown) => {
      if (!/stream not found/i.test(String(error))) throw error;
    });
  },
});

describe("createJetStreamBus()", () => {
  it("fails with unavailable, quickly, when nothing listens", async () => {
    const started = performance.now();
    await assert.rejects(
      createJetStreamBus({ servers: "127.0.0.1:1", connectTimeoutMs: 2_000 }),
      (error: unknown) => isAppError(error) && error.code === "unavailable" && /connect/.test(error.message),
    );
    assert.ok(performance.now() - started < 2_000, "within the connect timeout");
  });
});
