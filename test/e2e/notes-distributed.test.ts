import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { LOUPE_STREAM, type BusMessage } from "@loupe/events";
import { createJetStreamBus } from "@loupe/events/jetstream";
import { createGrpcClient, type GrpcClient } from "@loupe/grpc";
import { ConversationService, type Note } from "@loupe/proto";
import { freePort, removeBucket, s3ProcessEnv, s3TestEnv, startLoupeProcess, type LoupeProcess } from "@loupe/testing";
import { agentSession, type TurnInit } from "../support/agent-session.js";
import { eventually as poll } from "../support/eventually.js";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";

const eventually = <T>(probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> => poll(probe, timeoutMs, 200);
const NATS_URL = "nats://127.0.0.1:4222";
const REDIS_URL = "redis://127.0.0.1:6379";
const DEAD_LETTERS = "LOUPE_DEAD_LETTERS";
const SESSIONS = 2;
const ROUNDS = 30;
const BATCH = 6;
const WINDOW = 5000;

/** Appends a session's turns in batches, as a runtime streams them. */
async function stream(
  client: GrpcClient<typeof ConversationService>,
  sessionId: string,
  turns: TurnInit[],
  between?: (batch: number) => Promise<void>,
): Promise<void> {
  for (let start = 0, batch = 0; start < turns.length; start += BATCH, batch++) {
    await client.appendTurns({
      sessionId,
      source: "agent",
      systemPrompt: "You are a coding agent.",
      turns: turns.slice(start, start + BATCH),
      contextWindowTokens: WINDOW,
    });
    await between?.(batch);
  }
}

/** Waits until the note stops moving and covers what the same turns give an uninterrupted run. */
const settled = (client: GrpcClient<typeof ConversationService>, sessionId: string, expected: Note) =>
  eventually(async () => {
    const { note } = await client.getNote({ sessionId });
    return note !== undefined && note.coveredThroughSeq >= expected.coveredThroughSeq ? note : undefined;
  });

describe("note-workers: two replicas, one SIGKILLed mid-batch and restarted (NATS, Redis, RGW)", () => {
  const run = randomUUID().slice(0, 8);
  const durable = `notes-${run}`;
  const bucket = `loupe-notes-${run}`;
  let archive: LoupeProcess;
  let gateway: LoupeProcess;
  const workers: LoupeProcess[] = [];
  let client: GrpcClient<typeof ConversationService>;
  let reference: EmbeddedLoupe;
  let referenceClient: GrpcClient<typeof ConversationService>;
  let archiveAddress = "";

  const startWorker = async (name: string): Promise<LoupeProcess> => {
    const worker = startLoupeProcess(["note-worker"], {
      LOUPE_NATS_URL: NATS_URL,
      LOUPE_REDIS_URL: REDIS_URL,
      LOUPE_ARCHIVE_ADDR: archiveAddress,
      LOUPE_NOTE_WORKER_DURABLE: durable,
      LOUPE_NOTE_WORKER_START_AT: "new",
      LOUPE_NOTE_WORKER_ID: name,
      LOUPE_NOTE_WORKER_ACK_WAIT_MS: "2000",
      LOUPE_NOTE_LEASE_MS: "2000",
      LOUPE_GRPC_PORT: String(await freePort()),
      LOUPE_HTTP_PORT: String(await freePort()),
    });
    await worker.waitFor(/note-worker started/);
    workers.push(worker);
    return worker;
  };

  before(async () => {
    const archivePort = await freePort();
    const gatewayPort = await freePort();
    archiveAddress = `127.0.0.1:${String(archivePort)}`;
    archive = startLoupeProcess(["archive"], {
      ...s3ProcessEnv(s3TestEnv(), bucket),
      LOUPE_GRPC_PORT: String(archivePort),
      LOUPE_HTTP_PORT: String(await freePort()),
    });
    gateway = startLoupeProcess(["gateway"], {
      LOUPE_ARCHIVE_ADDR: archiveAddress,
      LOUPE_NATS_URL: NATS_URL,
      LOUPE_REDIS_URL: REDIS_URL,
      LOUPE_GRPC_PORT: String(gatewayPort),
      LOUPE_HTTP_PORT: String(await freePort()),
      LOUPE_RESULT_ID_SECRET: `notes-${run}`,
    });
    await Promise.all([archive.waitFor(/archive started/), gateway.waitFor(/gateway started/)]);
    client = createGrpcClient(ConversationService, `127.0.0.1:${String(gatewayPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
    reference = await startEmbeddedLoupe();
    referenceClient = createGrpcClient(ConversationService, `127.0.0.1:${String(reference.grpcPort)}`, { maxResultBytes: 64 * 1024 * 1024 });
  });

  after(async () => {
    client.close();
    referenceClient.close();
    await Promise.all([gateway.stop(), archive.stop(), ...workers.map((worker) => worker.stop()), reference.stop()]);
    const connection = await connect({ servers: NATS_URL });
    const manager = await jetstreamManager(connection);
    await manager.consumers.delete(LOUPE_STREAM, durable).catch(() => undefined);
    await connection.close();
    await removeBucket(s3TestEnv(), bucket);
  });

  it("loses no accepted turn, and the notes converge to an uninterrupted run's, with no input applied twice", async () => {
    await startWorker(`a-${run}`);
    await startWorker(`b-${run}`);
    const sessions = Array.from({ length: SESSIONS }, (_, index) => ({ id: `kill-${run}-${String(index)}`, turns: agentSession(ROUNDS) }));
    let killed = false;
    await Promise.all(
      sessions.map((session, index) =>
        stream(client, session.id, session.turns, async (batch) => {
          // Mid-stream, once replica a has written notes: SIGKILL it (in-flight work is lost, not acked), then restart it.
          if (index !== 0 || batch !== 3 || killed) return;
          const victim = workers[0];
          assert.ok(victim);
          // Best when it is writing notes; kill it anyway if the other replica took all the work so far.
          await victim.waitFor(/note updated/, 15_000).catch(() => undefined);
          killed = true;
          await victim.stop("SIGKILL");
          await startWorker(`a-${run}`);
        }),
      ),
    );
    assert.ok(killed);
    for (const session of sessions) await stream(referenceClient, session.id, session.turns);

    for (const session of sessions) {
      const expected = await eventually(async () => {
        const { note } = await referenceClient.getNote({ sessionId: session.id });
        return note !== undefined && note.lagTokens < (WINDOW * 20) / 100 ? note : undefined;
      });
      const note = await settled(client, session.id, expected);
      assert.equal(note.coveredThroughSeq, expected.coveredThroughSeq);
      assert.equal(note.version, expected.version, "as many updates as an uninterrupted run: none repeated, none skipped");
      assert.equal(note.text, expected.text);
      // Every accepted turn is in the log, once, in order.
      const logged: number[] = [];
      let cursor = "";
      do {
        const page = await client.readHistory({ sessionId: session.id, startSeq: 1, budgetTokens: 200_000, cursor });
        logged.push(...page.turns.map((turn) => turn.seq));
        cursor = page.nextCursor;
      } while (cursor !== "");
      assert.deepEqual(
        logged,
        session.turns.map((turn) => turn.seq),
      );
    }
  });

  it("moves a poison event to the dead-letter stream with its reason, and never retries it", async () => {
    const bus = await createJetStreamBus({ servers: NATS_URL });
    const subject = `loupe.turn.appended.local.poison-${run}`;
    await bus.publish(subject, new TextEncoder().encode("{not json"));
    await bus.close();
    const reader = await createJetStreamBus({ servers: NATS_URL });
    const dead: BusMessage[] = [];
    const subscription = await reader.consume(DEAD_LETTERS, {
      durable: `dlq-${run}`,
      filterSubject: `loupe_dead.${subject}`,
      handler: async (message) => {
        dead.push(message);
        message.ack();
      },
    });
    await eventually(async () => (dead.length > 0 ? true : undefined), 20_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await subscription.stop();
    await reader.close();
    assert.equal(dead.length, 1, "moved once, never retried");
    assert.match(dead[0]?.headers["Loupe-Dead-Reason"] ?? "", /malformed event envelope/);
    assert.equal(dead[0]?.headers["Loupe-Original-Subject"], subject);
    const connection = await connect({ servers: NATS_URL });
    await (await jetstreamManager(connection)).consumers.delete(DEAD_LETTERS, `dlq-${run}`).catch(() => undefined);
    await connection.close();
  });
});
