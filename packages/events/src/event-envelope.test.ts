import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { decodeEnvelope, encodeEnvelope } from "./event-envelope.js";
import type { EventEnvelope } from "./event-envelope.js";

const envelope: EventEnvelope<{ turns: number[]; note: string }> = {
  type: "turn.appended",
  id: "evt_01",
  tenant: "local",
  time: "2025-01-02T03:04:05.678Z",
  data: { turns: [1, 2], note: "ünïcode ✓" },
};
const isInvalidArgument = (error: unknown): boolean => isAppError(error) && error.code === "invalid_argument";
const json = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

describe("encodeEnvelope() / decodeEnvelope()", () => {
  it("round-trips", () => {
    assert.deepEqual(decodeEnvelope(encodeEnvelope(envelope)), envelope);
  });

  it("encodes UTF-8 JSON with the fields in a fixed order", () => {
    const text = new TextDecoder().decode(encodeEnvelope({ data: null, time: envelope.time, tenant: "t", id: "i", type: "x.y" }));
    assert.equal(text, `{"type":"x.y","id":"i","tenant":"t","time":"${envelope.time}","data":null}`);
  });

  it("drops unknown fields on decode", () => {
    assert.deepEqual(decodeEnvelope(json({ ...envelope, extra: 1 })), envelope);
  });

  const malformed: [string, Uint8Array][] = [
    ["empty input", new Uint8Array()],
    ["not json", new TextEncoder().encode("{type:")],
    ["not utf-8", new Uint8Array([0x7b, 0xff, 0x7d])],
    ["an array", json([envelope])],
    ["null", json(null)],
    ["a missing type", json({ ...envelope, type: undefined })],
    ["an empty tenant", json({ ...envelope, tenant: "" })],
    ["a numeric id", json({ ...envelope, id: 7 })],
    ["a time that is not ISO 8601", json({ ...envelope, time: "yesterday" })],
    ["an impossible date", json({ ...envelope, time: "2025-13-45T00:00:00Z" })],
    ["missing data", json({ type: "a", id: "b", tenant: "c", time: envelope.time })],
  ];
  for (const [label, bytes] of malformed) {
    it(`decode refuses ${label} (invalid_argument)`, () => {
      assert.throws(() => decodeEnvelope(bytes), isInvalidArgument);
    });
  }

  it("encode refuses what it could not decode (invalid_argument)", () => {
    assert.throws(() => encodeEnvelope({ ...envelope, time: "now" }), isInvalidArgument);
    assert.throws(() => encodeEnvelope({ ...envelope, data: { big: 1n } }), isInvalidArgument);
    assert.throws(() => encodeEnvelope({ ...envelope, data: undefined }), isInvalidArgument);
  });
});
