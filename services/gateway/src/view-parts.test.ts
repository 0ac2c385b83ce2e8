import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { PartSchema } from "@loupe/proto";
import { viewParts } from "./view-parts.js";

describe("viewParts()", () => {
  it("puts the text first and keeps media untouched, in order", () => {
    const image = create(PartSchema, { content: { case: "media", value: { mimeType: "image/png", data: new Uint8Array([1, 2, 3]), name: "a.png" } } });
    const audio = create(PartSchema, { content: { case: "media", value: { mimeType: "audio/wav", uri: "s3://bucket/b.wav", name: "b.wav" } } });
    const parts = viewParts("view", [image, audio]);
    assert.equal(parts.length, 3);
    assert.deepEqual(parts[0], { content: { case: "text", value: "view" } });
    assert.equal(parts[1], image);
    assert.equal(parts[2], audio);
  });

  it("names a medium that cannot be attached instead of dropping it silently", () => {
    const empty = create(PartSchema, { content: { case: "media", value: { mimeType: "image/jpeg", name: "shot.jpg" } } });
    const parts = viewParts("view", [empty]);
    assert.deepEqual(parts[1], { content: { case: "text", value: '[loupe] image/jpeg "shot.jpg" could not be attached: it has no data and no location' } });
  });
});
