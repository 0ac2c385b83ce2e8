import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createProgress } from "./progress.js";

describe("createProgress()", () => {
  it("draws a bar in place on a terminal, ending the line when done", () => {
    const written: string[] = [];
    const update = createProgress({ write: (text: string) => written.push(text), isTTY: true, columns: 80 }, { now: () => 0 });
    update(1, 4);
    update(4, 4);
    assert.match(written[0] ?? "", /^\r\[#+-+\] 1\/4 trajectories, 0s$/);
    assert.match(written[1] ?? "", /^\r\[#+\] 4\/4 trajectories, 0s\n$/);
  });

  it("writes a line per interval and one at the end otherwise", () => {
    const written: string[] = [];
    let clock = 0;
    const update = createProgress({ write: (text: string) => written.push(text) }, { now: () => clock, intervalMs: 1000 });
    for (let done = 1; done <= 10; done++) {
      clock += 300;
      update(done, 10);
    }
    assert.deepEqual(written, ["eval: 4/10 trajectories, 1s\n", "eval: 8/10 trajectories, 2s\n", "eval: 10/10 trajectories, 3s\n"]);
  });
});
