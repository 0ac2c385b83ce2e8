import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import type { ErrorCode } from "@loupe/errors";
import { bytes, createContractFixture, sleep, text } from "./bus-contract-fixture.js";
import type { BusContractTarget, ContractFixture } from "./bus-contract-fixture.js";
import { retryDelayMs } from "../delivery.js";

export type { BusContractTarget } from "./bus-contract-fixture.js";

/**
 * The behaviour every {@link Bus} adapter must show, as node:test cases:
 * run it once per adapter (`describeBusContract("memory", { open, ackWaitMs: 200, persistent: true })`).
 * Each case makes its own stream and removes it.
 *
 * @internal test support
 */
export function describeBusContract(name: string, target: BusContractTarget): void {
  const ackWait = target.ackWaitMs;
  const quiet = Math.round(ackWait * 1.5) + 100;
  const soon = ackWait * 4 + 2_000;
  const test = (title: string, body: (fixture: ContractFixture) => Promise<void>): void => {
    it(title, async () => {
      const fixture = await createContractFixture(target);
      try {
        await body(fixture);
      } finally {
        await fixture.cleanup();
      }
    });
  };
  const rejectsWith = async (work: Promise<unknown>, code: ErrorCode): Promise<void> => {
    await assert.rejects(work, (error: unknown) => isAppError(error) && error.code === code);
  };

  describe(`${name}: Bus contract`, () => {
    test("publish answers increasing sequences and dedupes by msgId", async ({ bus, subject, consume, until, seen }) => {
      const first = await bus.publish(subject("a"), bytes("one"), { msgId: "m-1" });
      const again = await bus.publish(subject("a"), bytes("two"), { msgId: "m-1" });
      const next = await bus.publish(subject("a"), bytes("three"));
      assert.deepEqual(again, { seq: first.seq, duplicate: true });
      assert.deepEqual(next, { seq: first.seq + 1, duplicate: false });
      await consume({});
      await until(() => seen.length >= 2, soon, "two deliveries");
      await sleep(quiet);
      assert.deepEqual(
        seen.map((each) => text(each.message.data)),
        ["one", "three"],
      );
    });

    test("a new durable starting at new skips what was stored before it; one starting at all gets everything", async ({
      bus,
      subject,
      consume,
      until,
      seen,
    }) => {
      await bus.publish(subject("a"), bytes("old"));
      await consume({ startAt: "new", durable: "fresh", by: "fresh" });
      await consume({ durable: "everything", by: "all" });
      await bus.publish(subject("a"), bytes("new"));
      await until(() => seen.filter((each) => each.by === "all").length >= 2 && seen.some((each) => each.by === "fresh"), soon, "deliveries to both");
      await sleep(quiet);
      assert.deepEqual(
        seen.filter((each) => each.by === "fresh").map((each) => text(each.message.data)),
        ["new"],
      );
      assert.deepEqual(
        seen
          .filter((each) => each.by === "all")
          .map((each) => text(each.message.data))
          .sort(),
        ["new", "old"],
      );
    });

    test("delivers subject, data, headers, seq and deliveryCount 1", async ({ bus, subject, consume, until, seen }) => {
      const headers = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "x-loupe-tenant": "t1" };
      const ack = await bus.publish(subject("b.c"), bytes("payload ✓"), { msgId: "with-headers", headers });
      await consume({});
      await until(() => seen.length === 1, soon, "one delivery");
      const message = seen[0]?.message;
      assert.equal(message?.subject, subject("b.c"));
      assert.equal(text(message.data), "payload ✓");
      assert.deepEqual({ ...message.headers }, headers);
      assert.equal(message.seq, ack.seq);
      assert.equal(message.deliveryCount, 1);
    });

    test("refuses bad input and unknown places with AppErrors", async ({ bus, stream, subject }) => {
      await rejectsWith(bus.publish("nostream.anywhere.x", bytes("x")), "failed_precondition");
      await rejectsWith(bus.publish(subject("a..b"), bytes("x")), "invalid_argument");
      await rejectsWith(bus.publish(subject("*"), bytes("x")), "invalid_argument");
      await rejectsWith(bus.publish(subject("a"), bytes("x"), { headers: { "Nats-Msg-Id": "x" } }), "invalid_argument");
      await rejectsWith(bus.publish(subject("a"), new Uint8Array(2 * 1024 * 1024)), "resource_exhausted");
      const handler = async (): Promise<void> => undefined;
      await rejectsWith(bus.consume(stream, { durable: "a.b", filterSubject: subject(">"), handler }), "invalid_argument");
      await rejectsWith(bus.consume("NO_SUCH_STREAM_X", { durable: "w", filterSubject: subject(">"), handler }), "not_found");
      const controller = new AbortController();
      controller.abort();
      await rejectsWith(bus.publish(subject("a"), bytes("x"), { signal: controller.signal }), "cancelled");
    });

    test("streams may not overlap", async ({ bus, stream, subject, track }) => {
      const other = `${stream}_OTHER`;
      track(other);
      const config = { name: other, subjects: [subject("x.>")], maxAgeMs: 60_000, maxBytes: 1024 * 1024 };
      await rejectsWith(bus.ensureStream(config), "failed_precondition");
      await bus.ensureStream({ name: stream, subjects: [subject(">")], maxAgeMs: 120_000, maxBytes: 1024 * 1024 });
    });

    test("two subscribers on one durable share the work: each message handled once", async ({ bus, subject, consume, until, seen }) => {
      const total = 30;
      for (let index = 0; index < total; index += 1) await bus.publish(subject(`n.${index}`), bytes(String(index)));
      const slowAck = async ({ message }: { message: { ack(): void } }): Promise<void> => {
        await sleep(15);
        message.ack();
      };
      await Promise.all([consume({ by: "first", maxMessages: 2, act: slowAck }), consume({ by: "second", maxMessages: 2, act: slowAck })]);
      await until(() => seen.length >= total, soon, `${total} deliveries`);
      await sleep(quiet);
      const seqs = seen.map((each) => each.message.seq);
      assert.equal(seqs.length, total);
      assert.equal(new Set(seqs).size, total);
      assert.ok(seen.some((each) => each.by === "first") && seen.some((each) => each.by === "second"), "both subscribers worked");
    });

    test("nak() redelivers at once with deliveryCount 2", async ({ bus, subject, consume, until, seen }) => {
      await bus.publish(subject("nak"), bytes("x"));
      await consume({ act: ({ message }) => (message.deliveryCount === 1 ? message.nak() : message.ack()) });
      await until(() => seen.length === 2, soon, "redelivery");
      assert.deepEqual(
        seen.map((each) => each.message.deliveryCount),
        [1, 2],
      );
      assert.ok((seen[1]?.atMs ?? 0) - (seen[0]?.atMs ?? 0) < ackWait, "sooner than the ack wait");
    });

    test("nak(delayMs) redelivers after the delay", async ({ bus, subject, consume, until, seen }) => {
      const delayMs = Math.round(ackWait * 0.6);
      await bus.publish(subject("nak-delay"), bytes("x"));
      await consume({ act: ({ message }) => (message.deliveryCount === 1 ? message.nak(delayMs) : message.ack()) });
      await until(() => seen.length === 2, soon, "delayed redelivery");
      assert.ok((seen[1]?.atMs ?? 0) - (seen[0]?.atMs ?? 0) >= delayMs - 50, "not before the delay");
    });

    test("term() is never redelivered", async ({ bus, subject, consume, until, seen }) => {
      await bus.publish(subject("term"), bytes("poison"));
      await bus.publish(subject("term"), bytes("fine"));
      await consume({ act: ({ message }) => (text(message.data) === "poison" ? message.term("malformed envelope") : message.ack()) });
      await until(() => seen.length >= 2, soon, "both deliveries");
      await sleep(ackWait * 2 + 200);
      assert.equal(seen.length, 2);
    });

    test("a delivery left unsettled is redelivered after ackWaitMs", async ({ bus, subject, consume, until, seen }) => {
      await bus.publish(subject("slow"), bytes("x"));
      await consume({ act: ({ message }) => (message.deliveryCount === 1 ? undefined : message.ack()) });
      await until(() => seen.length === 2, soon, "redelivery after the ack wait");
      assert.equal(seen[1]?.message.deliveryCount, 2);
      assert.ok((seen[1]?.atMs ?? 0) - (seen[0]?.atMs ?? 0) >= ackWait * 0.9, "not before the ack wait");
    });

    test("working() keeps a slow handler (2× ackWait) from redelivery", async ({ bus, subject, consume, until, seen }) => {
      await bus.publish(subject("working"), bytes("x"));
      await consume({
        act: async ({ message }) => {
          for (let spent = 0; spent < ackWait * 2; spent += ackWait / 4) {
            await sleep(ackWait / 4);
            message.working();
          }
          message.ack();
        },
      });
      await until(() => seen.length === 1, soon, "first delivery");
      await sleep(ackWait * 2 + quiet);
      assert.equal(seen.length, 1);
    });

    test("maxDeliver bounds the deliveries of a message", async ({ bus, subject, consume, until, seen }) => {
      await bus.publish(subject("max"), bytes("x"));
      await consume({ maxDeliver: 2, act: ({ message }) => message.nak() });
      await until(() => seen.length === 2, soon, "two deliveries");
      await sleep(quiet);
      assert.deepEqual(
        seen.map((each) => each.message.deliveryCount),
        [1, 2],
      );
    });

    test("a handler that throws without settling is retried after a backoff", async ({ bus, subject, consume, until, seen }) => {
      await bus.publish(subject("throw"), bytes("x"));
      await consume({
        act: ({ message }) => {
          if (message.deliveryCount === 1) throw new Error("handler failed");
          message.ack();
        },
      });
      await until(() => seen.length === 2, soon + retryDelayMs(1), "retry");
      assert.equal(seen[1]?.message.deliveryCount, 2);
      assert.ok((seen[1]?.atMs ?? 0) - (seen[0]?.atMs ?? 0) >= retryDelayMs(1) - 100, "after the backoff");
    });

    test("maxMessages bounds the handler calls in flight", async ({ bus, subject, consume, until, seen }) => {
      for (let index = 0; index < 9; index += 1) await bus.publish(subject("limit"), bytes(String(index)));
      let active = 0;
      let peak = 0;
      await consume({
        maxMessages: 3,
        act: async ({ message }) => {
          peak = Math.max(peak, (active += 1));
          await sleep(60);
          active -= 1;
          message.ack();
        },
      });
      await until(() => seen.length === 9, soon, "nine deliveries");
      assert.equal(peak, 3);
    });

    test("a durable bound again after stop() continues where it left off", async ({ bus, subject, consume, until, seen }) => {
      const first = await Promise.all([1, 2, 3].map((index) => bus.publish(subject("re"), bytes(`a${index}`))));
      const subscription = await consume({ by: "first" });
      await until(() => seen.length === 3, soon, "first three");
      await subscription.stop();
      await subscription.done;
      const later = [];
      for (const index of [1, 2, 3]) later.push(await bus.publish(subject("re"), bytes(`b${index}`)));
      await consume({ by: "second" });
      await until(() => seen.length === 6, soon, "next three");
      await sleep(quiet);
      assert.deepEqual(
        seen.map((each) => each.message.seq).sort((a, b) => a - b),
        [...first, ...later].map((ack) => ack.seq),
      );
    });

    test("the filter subject selects messages; another filter on the durable is refused", async (fixture) => {
      const { bus, subject, consume, until, seen, stream } = fixture;
      for (const suffix of ["a.1", "b.1", "a.2"]) await bus.publish(subject(suffix), bytes(suffix));
      await consume({ durable: "only-a", filterSubject: subject("a.>") });
      await until(() => seen.length >= 2, soon, "two matching");
      await sleep(quiet);
      assert.deepEqual(
        seen.map((each) => text(each.message.data)),
        ["a.1", "a.2"],
      );
      const handler = async (): Promise<void> => undefined;
      await rejectsWith(bus.consume(stream, { durable: "only-a", filterSubject: subject("b.>"), handler }), "failed_precondition");
    });

    test("stop() waits for handlers in flight; an aborted signal stops too", async ({ bus, subject, consume, until, seen }) => {
      await bus.publish(subject("stop"), bytes("x"));
      let finished = false;
      const subscription = await consume({
        act: async ({ message }) => {
          await sleep(100);
          finished = true;
          message.ack();
        },
      });
      await until(() => seen.length === 1, soon, "delivery");
      await subscription.stop();
      assert.equal(finished, true);
      const controller = new AbortController();
      const other = await consume({ durable: "other", signal: controller.signal });
      controller.abort();
      await other.done;
    });

    if (target.persistent) {
      test("a bus opened again redelivers unsettled messages, keeps acks and dedupe", async (fixture) => {
        const { bus, subject, consume, until, seen } = fixture;
        for (const [label, msgId] of [
          ["m1", "id-1"],
          ["m2", "id-2"],
          ["m3", "id-3"],
        ] as const) {
          await bus.publish(subject("restart"), bytes(label), { msgId });
        }
        await consume({ act: ({ message }) => (text(message.data) === "m2" ? undefined : message.ack()) });
        await until(() => seen.length === 3, soon, "three deliveries");
        await sleep(50); // lets the acks reach the store before the close
        await bus.close();
        const reopened = await fixture.reopen();
        await consume({ on: reopened, by: "reopened" });
        await until(() => seen.some((each) => each.by === "reopened"), soon, "redelivery after reopen");
        await sleep(quiet);
        const after = seen.filter((each) => each.by === "reopened").map((each) => [text(each.message.data), each.message.deliveryCount]);
        assert.deepEqual(after, [["m2", 2]]);
        const again = await reopened.publish(subject("restart"), bytes("m2 again"), { msgId: "id-2" });
        assert.equal(again.duplicate, true);
        assert.equal(again.seq, seen.find((each) => text(each.message.data) === "m2")?.message.seq);
        await rejectsWith(bus.publish(subject("x"), bytes("x")), "unavailable");
      });
    }
  });
}
