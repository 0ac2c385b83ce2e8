import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTokenCounter, projectResult } from "@loupe/projection";
import { coreResultInput, createCorePolicy } from "./core-policy.js";
import type { CorpusRow } from "./corpus-row.js";
import { fixtureRow } from "./testing/fixture-rows.js";

const counter = createTokenCounter("o200k_base");

function row(output: string, args: unknown = { command: "python reproduce.py" }, tool = "execute_bash"): CorpusRow {
  return fixtureRow(3, output, "", { tool, args, exitCode: 1 });
}

const long =
  Array.from({ length: 600 }, (_, index) => `line ${String(index)}: value_${String(index * 7)} computed\n`).join("") +
  'Traceback (most recent call last):\n  File "/testbed/mod.py", line 9, in run\nValueError: bad_value_marker\n';

describe("createCorePolicy()", () => {
  it("shows an output that fits whole, and saves nothing", async () => {
    const view = await createCorePolicy().view(row("ok\n"), "s");
    assert.deepEqual(view, { firstView: "ok\n", saved: false });
  });

  it("cuts a long output as the gateway would (a shell call as bash, the budget less the unknown model's margin) and recovers from the saved output", async () => {
    const policy = createCorePolicy({ budgetTokens: 1000 });
    assert.equal(policy.name, "core:budget=1000");
    const view = await policy.view(row(long), "s");
    assert.equal(view.saved, true);
    assert.match(view.firstView, /^\[loupe\] \$ python reproduce\.py · exit 1/);
    assert.ok(view.firstView.includes("ValueError: bad_value_marker"));
    // 1,000 tokens for an unknown model: 800 for the projector.
    assert.ok(counter.count(view.firstView) <= 800);
    const direct = projectResult(coreResultInput(row(long), long), {
      budgetTokens: 800,
      maxViewBytes: 50 * 1024,
      counter,
      resultId: /"result_id":"(r_[\w-]{32})"/.exec(view.firstView)?.[1] ?? "",
      view: "",
    });
    assert.equal(direct.text, view.firstView);
    assert.ok(!view.firstView.includes("value_2100 "));
    assert.deepEqual(await view.recover?.("value_2100"), { found: true, answer: "301:line 300: value_2100 computed" });
    assert.equal((await view.recover?.("absent_thing"))?.found, false);
  });

  it("gives a call the same view whatever the policy's name or the session (the result id depends on the call alone)", async () => {
    const one = await createCorePolicy({ budgetTokens: 1000 }).view(row(long), "core:budget=1000|fixture|t1");
    const other = await createCorePolicy({ budgetTokens: 1000, name: "core:budget=1000,command.tail=0.2", shares: { command: { tail: 0.2 } } }).view(
      row(long),
      "other|fixture|t1",
    );
    assert.equal(other.firstView, one.firstView);
  });

  it("with model=recorded, sizes each call's view for the model the call recorded, as a hook that reads it does", async () => {
    const policy = createCorePolicy({ budgetTokens: 1000, model: "recorded" });
    const exact = await policy.view({ ...row(long), model: "openai/gpt-4o" }, "s");
    const unknown = await policy.view({ ...row(long), model: "" }, "s");
    // gpt-4o has its own tokenizer: the whole 1,000; a call that recorded no model: 800, as without a model.
    assert.ok(counter.count(exact.firstView) > 800 && counter.count(exact.firstView) <= 1000, String(counter.count(exact.firstView)));
    assert.equal(unknown.firstView, (await createCorePolicy({ budgetTokens: 1000 }).view(row(long), "s")).firstView);
    assert.equal(exact.firstView, (await createCorePolicy({ budgetTokens: 1000, model: "gpt-4o" }).view(row(long), "s")).firstView);
  });

  it("projects with the shares it was given", async () => {
    const plain = await createCorePolicy({ budgetTokens: 1000 }).view(row(long), "s");
    const tailFirst = await createCorePolicy({ budgetTokens: 1000, shares: { command: { scriptHead: 0, head: 0, moreTail: 1 } } }).view(row(long), "s");
    assert.notEqual(tailFirst.firstView, plain.firstView);
    assert.ok(tailFirst.firstView.includes("line 599: value_4193 computed") && !tailFirst.firstView.includes("line 1: value_7 computed"));
  });

  it("masks secrets as the gateway does by default, in the view and the saved output", async () => {
    const secret = "AKIA" + "IOSFODNN7EXAMPLE";
    const view = await createCorePolicy({ budgetTokens: 1000 }).view(row(`aws_key=${secret}\n${long}`), "s");
    assert.ok(!view.firstView.includes(secret));
    assert.equal((await view.recover?.(secret))?.found, false);
  });
});
