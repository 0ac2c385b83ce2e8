import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { imageActions, planImageCuts } from "./plan-image-cuts.js";

describe("planImageCuts()", () => {
  it("references every copy of an image but its last, and thumbnails all but the last keepLast shown images", () => {
    const hashes = ["a", "b", "a", "c", "d", "a"];
    assert.deepEqual(imageActions(hashes, planImageCuts(hashes, { keepLast: 2, dedupe: true })), [
      "reference",
      "thumbnail",
      "reference",
      "thumbnail",
      "keep",
      "keep",
    ]);
    assert.deepEqual(imageActions(hashes, planImageCuts(hashes, { keepLast: 0, dedupe: true })), ["reference", "keep", "reference", "keep", "keep", "keep"]);
    assert.deepEqual(imageActions(hashes, planImageCuts(hashes, { keepLast: 3, dedupe: false })), [
      "thumbnail",
      "thumbnail",
      "thumbnail",
      "keep",
      "keep",
      "keep",
    ]);
    assert.deepEqual(planImageCuts(hashes, { keepLast: 0, dedupe: false }), {});
  });

  it("keeps the earlier images' actions when the history grows (a warm cache sees the same bytes)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 30 }),
        fc.array(fc.constantFrom("a", "b", "e"), { maxLength: 10 }),
        fc.nat(5),
        fc.boolean(),
        (before, added, keepLast, dedupe) => {
          const decisions = planImageCuts(before, { keepLast, dedupe });
          const grown = imageActions([...before, ...added], decisions);
          assert.deepEqual(grown.slice(0, before.length), imageActions(before, decisions));
          assert.ok(
            grown.slice(before.length).every((action) => action === "keep"),
            "new images stay as they are",
          );
        },
      ),
    );
  });

  it("never touches the last image, and keeps at least keepLast images whole", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f"), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        (hashes, keepLast, dedupe) => {
          const actions = imageActions(hashes, planImageCuts(hashes, { keepLast, dedupe }));
          assert.equal(actions.at(-1), "keep");
          const shown = dedupe ? new Set(hashes).size : hashes.length;
          assert.equal(actions.filter((action) => action === "keep").length, Math.min(shown, keepLast));
        },
      ),
    );
  });
});
