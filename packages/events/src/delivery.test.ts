import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDelivery, retryDelayMs, runHandler } from "./delivery.js";

describe("retryDelayMs()", () => {
  for (const [count, expected] of [
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [7, 60_000],
    [100, 60_000],
  ] as const) {
    it(`delivery ${count} → ${expected} ms`, () => assert.equal(retryDelayMs(count), expected));
  }
});

describe("createDelivery() / runHandler()", () => {
  const fields = { subject: "s", data: new Uint8Array(), headers: {}, seq: 1, deliveryCount: 3 };

  it("settles once: the first of ack, nak or term wins; working() after it does nothing", () => {
    const calls: string[] = [];
    const delivery = createDelivery(fields, {
      ack: () => calls.push("ack"),
      nak: (delayMs) => calls.push(`nak ${delayMs}`),
      term: (reason) => calls.push(`term ${String(reason)}`),
      working: () => calls.push("working"),
    });
    delivery.message.working();
    delivery.message.nak(-5);
    delivery.message.ack();
    delivery.message.term("x");
    delivery.message.working();
    assert.deepEqual(calls, ["working", "nak 0"]);
    assert.equal(delivery.settled, true);
  });

  it("naks with the backoff when the handler throws without settling, and not when it settled", async () => {
    const calls: string[] = [];
    const actions = {
      ack: () => calls.push("ack"),
      nak: (delayMs: number) => calls.push(`nak ${delayMs}`),
      term: () => calls.push("term"),
      working: () => undefined,
    };
    await runHandler(createDelivery(fields, actions), async () => Promise.reject(new Error("boom")));
    await runHandler(createDelivery(fields, actions), async (message) => {
      message.term();
      throw new Error("after term");
    });
    assert.deepEqual(calls, [`nak ${retryDelayMs(3)}`, "term"]);
  });
});
