import assert from "node:assert/strict";
import { TRACKER_ITEMS, trackerAnswer } from "./tracker-data.js";

/**
 * Checks Loupe's view of the tracker's JSON answer as the model got it: valid JSON, the query
 * and total kept, the first item whole, and the items left out named by a marker whose `recover`
 * is a read_result continuation (a JSON pointer into `/items`).
 */
export function checkTrackerView(text: string): void {
  const view = JSON.parse(text) as { query: string; total: number; items: Array<Record<string, unknown>> };
  const original = trackerAnswer("crash");
  assert.deepEqual([view.query, view.total], ["crash", TRACKER_ITEMS]);
  assert.deepEqual(view.items[0], original.items[0]);
  assert.ok(view.items.length < TRACKER_ITEMS, "the view is shorter than the answer");
  const marker = view.items.find((item) => item["$loupe"] === "omitted" && typeof item["items"] === "number");
  assert.ok(marker, "a marker names the items left out");
  const recover = marker["recover"] as Record<string, unknown>;
  assert.equal(recover["json_pointer"], "/items");
  assert.match(String(recover["result_id"]), /^r_/);
}
