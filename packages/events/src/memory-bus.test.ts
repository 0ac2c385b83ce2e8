import assert from "node:assert/strict";
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { describeBusContract, bytes, text } from "./testing/index.js";
import type { Bus, BusMessage, StreamConfig } from "./bus.js";
import { createMemoryBus } from "./memory-bus.js";
import { STATE_WRITE_DELAY_MS, type SavedStream } from "./memory-stream.js";

const directory = await mkdtemp(join(tmpdir(), "loupe-events-"));
after(() => rm(directory, { recursive: true, force: true }));

describeBusContract("memory bus without a directory", { open: () => createMemoryBus(), ackWaitMs: 200, persistent: false });
describeBusContract("memory bus on a directory", {
  open: () => createMemoryBus({ directory: join(directory, "contract") }),
  ackWaitMs: 200,
  persistent: true,
  removeStream: (name) => rm(join(directory, "contract", "streams", name), { recursive: true, force: true }),
});

let counter = 0;
async function freshBus(config: Partial<StreamConfig> = {}): Promise<{ bus: Bus; path: string; config: StreamConfig }> {
  counter += 1;
  const path = join(directory, `case-${counter}`);
  const bus = await createMemoryBus({ directory: path });
  const full = { name: "S", subjects: ["t.>"], maxAgeMs: 60_000, maxBytes: 1024 * 1024, ...config };
  await bus.ensureStream(full);
  return { bus, path, config: full };
}

async function drain(bus: Bus, durable = "d", waitMs = 100): Promise<BusMessage[]> {
  const seen: BusMessage[] = [];
  const subscription = await bus.consume("S", {
    durable,
    filterSubject: "t.>",
    handler: async (message) => {
      seen.push(message);
      message.ack();
    },
  });
  await sleep(waitMs);
  await subscription.stop();
  return seen;
}

const logPath = (path: string): string => join(path, "streams", "S", "messages.log");

describe("createMemoryBus() persistence", () => {
  it("has a publish on disk when it resolves", async () => {
    const { bus, path } = await freshBus();
    await bus.publish("t.a", bytes("durable"), { msgId: "x" });
    const log = await readFile(logPath(path), "utf8");
    assert.match(log, new RegExp(Buffer.from("durable").toString("base64")));
    await bus.close();
  });

  it("cuts an unfinished last log line and continues the sequence", async () => {
    const { bus, path } = await freshBus();
    await bus.publish("t.a", bytes("one"));
    await bus.publish("t.a", bytes("two"));
    await bus.close();
    await appendFile(logPath(path), '{"seq":3,"subject":"t.a","da');
    const reopened = await createMemoryBus({ directory: path });
    assert.deepEqual(await reopened.publish("t.a", bytes("three")), { seq: 3, duplicate: false });
    assert.deepEqual(
      (await drain(reopened)).map((message) => text(message.data)),
      ["one", "two", "three"],
    );
    await reopened.close();
  });

  it("refuses a log with a corrupt complete line (internal)", async () => {
    const { bus, path } = await freshBus();
    await bus.publish("t.a", bytes("one"));
    await bus.close();
    await writeFile(logPath(path), "not json\n" + (await readFile(logPath(path), "utf8")));
    await assert.rejects(createMemoryBus({ directory: path }), (error: unknown) => isAppError(error) && error.code === "internal");
  });

  it("after a crash, delivers again the messages whose acks had not reached disk, and none whose acks had", async () => {
    const { bus, path } = await freshBus();
    for (const word of ["one", "two", "three"]) await bus.publish("t.a", bytes(word));
    const acked: string[] = [];
    const subscription = await bus.consume("S", {
      durable: "d",
      filterSubject: "t.>",
      handler: async (message) => {
        acked.push(text(message.data));
        message.ack();
      },
    });
    while (acked.length < 3) await sleep(1);
    // The folder as a process killed now leaves it: within STATE_WRITE_DELAY_MS of the acks.
    await cp(path, `${path}-early`, { recursive: true });
    await sleep(STATE_WRITE_DELAY_MS * 3);
    // And as one killed after the delay, with no close or flush in between.
    await cp(path, `${path}-late`, { recursive: true });
    await subscription.stop();
    await bus.close();
    // What the early copy's state holds as done (everything up to deliveredSeq not pending); the rest comes again.
    const saved = JSON.parse(await readFile(join(`${path}-early`, "streams", "S", "state.json"), "utf8")) as SavedStream;
    const state = saved.consumers["d"];
    const done = (seq: number): boolean => state !== undefined && seq <= state.deliveredSeq && state.pending[String(seq)] === undefined;
    const early = await createMemoryBus({ directory: `${path}-early` });
    assert.deepEqual(
      (await drain(early)).map((message) => text(message.data)),
      ["one", "two", "three"].filter((_, index) => !done(index + 1)),
      "every message whose ack had not reached disk is delivered again: none lost",
    );
    await early.close();
    const late = await createMemoryBus({ directory: `${path}-late` });
    assert.deepEqual(await drain(late), [], "acks on disk after the delay: nothing delivered again");
    await late.close();
  });

  it("keeps delivery counts across a restart and honours maxDeliver", async () => {
    const { bus, path } = await freshBus();
    await bus.publish("t.a", bytes("x"));
    const counts: number[] = [];
    const leave = async (message: BusMessage): Promise<void> => void counts.push(message.deliveryCount);
    await bus.consume("S", { durable: "d", filterSubject: "t.>", maxDeliver: 2, ackWaitMs: 60_000, handler: leave });
    await sleep(50);
    await bus.close();
    const reopened = await createMemoryBus({ directory: path });
    await reopened.consume("S", { durable: "d", filterSubject: "t.>", maxDeliver: 2, ackWaitMs: 100, handler: leave });
    await sleep(400);
    await reopened.close();
    assert.deepEqual(counts, [1, 2]);
  });

  it("compacts the log once it holds mostly discarded messages", async () => {
    const { bus, path } = await freshBus({ maxBytes: 2_000 });
    for (let index = 1; index <= 1_200; index += 1) await bus.publish("t.a", bytes(`message ${index}`));
    await sleep(100);
    await bus.close();
    const lines = (await readFile(logPath(path), "utf8")).split("\n").filter(Boolean).length;
    assert.ok(lines < 300, `log compacted [lines=${lines}]`);
    const reopened = await createMemoryBus({ directory: path });
    assert.equal((await reopened.publish("t.a", bytes("next"))).seq, 1_201);
    const kept = await drain(reopened);
    assert.equal(kept.at(-1)?.seq, 1_201);
    assert.ok(kept.length < 200 && kept.every((message, index) => index === 0 || message.seq === (kept[index - 1]?.seq ?? 0) + 1));
    await reopened.close();
  });
});

describe("createMemoryBus() limits", () => {
  it("discards the oldest messages beyond maxBytes and after maxAgeMs", async () => {
    const { bus } = await freshBus({ maxBytes: 100, maxAgeMs: 150 });
    for (let index = 0; index < 5; index += 1) await bus.publish("t.a", bytes("0123456789012345678901234567890123456789"));
    assert.equal((await drain(bus, "by-size")).length, 2);
    await sleep(200);
    await bus.publish("t.a", bytes("fresh"));
    assert.deepEqual(
      (await drain(bus, "by-age")).map((message) => text(message.data)),
      ["fresh"],
    );
    await bus.close();
  });

  it("forgets a msgId after the duplicate window", async () => {
    const { bus } = await freshBus({ duplicateWindowMs: 100 });
    const first = await bus.publish("t.a", bytes("x"), { msgId: "same" });
    assert.equal((await bus.publish("t.a", bytes("x"), { msgId: "same" })).duplicate, true);
    await sleep(150);
    assert.deepEqual(await bus.publish("t.a", bytes("x"), { msgId: "same" }), { seq: first.seq + 1, duplicate: false });
    await bus.close();
  });

  it("gives a consumer created during a publish that message too", async () => {
    const { bus } = await freshBus();
    const publishing = bus.publish("t.a", bytes("racing"));
    const seen = drain(bus, "d", 150);
    await publishing;
    assert.deepEqual(
      (await seen).map((message) => text(message.data)),
      ["racing"],
    );
    await bus.close();
  });
});
