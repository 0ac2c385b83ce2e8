import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTokenCounter } from "@loupe/projection";
import { blindCut, createBlindPolicy, createHeadPolicy, headCut } from "./blind-policy.js";
import { createCorePolicy } from "./core-policy.js";
import type { CorpusRow, Trajectory } from "./corpus-row.js";
import { evidenceOf } from "./extract-evidence.js";
import { intentOf } from "./intent-of.js";
import { CLINE_LIMIT_CHARS, clinePolicy, deepAgentsPolicy } from "./peer-policies.js";
import { prepareTrajectory } from "./prepare-trajectory.js";
import { scoreTrajectory } from "./score-trajectory.js";
import { fixtureRow } from "./testing/fixture-rows.js";

const counter = createTokenCounter();

function row(step: number, output: string, nextAction: string, fields: Partial<CorpusRow> = {}): CorpusRow {
  return fixtureRow(step, output, nextAction, { task: "Fix parse_header", args: { command: "cat src/app.py" }, toolDetail: "cat", ...fields });
}

// A file of 2,000 lines whose line 1,200 holds what the next action uses.
const file = Array.from({ length: 2000 }, (_, index) =>
  index === 1200 ? "    table[key] = resolve_lookup(key, fallback_value)" : `    step_${String(index)} = run(${String(index)})`,
).join("\n");

describe("intentOf()", () => {
  it("is the task and the previous step's next action, never this step's", () => {
    const trajectory: Trajectory = { agentSystem: "fixture", id: "t1", rows: [row(1, "a", "first thought"), row(2, "b", "second thought")] };
    assert.equal(intentOf(trajectory, 0), "Fix parse_header");
    assert.equal(intentOf(trajectory, 1), "Fix parse_header\n\nfirst thought");
    const replayed: Trajectory = { agentSystem: "fixture", id: "t1#replay:4", rows: [row(1, "a", "next", { previousAction: "Let me read app.py" })] };
    assert.equal(intentOf(replayed, 0), "Fix parse_header\n\nLet me read app.py");
  });

  it("puts the earlier steps first: the next actions before the issuing one, or a replayed row's earlier_actions", () => {
    const trajectory: Trajectory = {
      agentSystem: "fixture",
      id: "t1",
      rows: [row(1, "a", "first thought\n[bash] grep -rn parse_header src"), row(2, "b", "second thought"), row(3, "c", "third thought")],
    };
    assert.equal(intentOf(trajectory, 2), "first thought\n[bash] grep -rn parse_header src\n\nFix parse_header\n\nsecond thought");
    assert.ok(!intentOf(trajectory, 2).includes("third thought"), "never this step's own next action");
    const replayed: Trajectory = {
      agentSystem: "fixture",
      id: "t1#replay:4",
      rows: [row(1, "a", "next", { previousAction: "Let me read app.py", earlierActions: ["[bash] ls", "[bash] cat setup.py"] })],
    };
    assert.equal(intentOf(replayed, 0), "[bash] ls\n\n[bash] cat setup.py\n\nFix parse_header\n\nLet me read app.py");
  });
});

describe("evidenceOf() with an intent", () => {
  it("does not count items the intent already holds", () => {
    const call = { nextAction: "edit resolve_lookup and fallback_value", output: file, outputAsSeen: file, task: "", argsText: "" };
    assert.deepEqual(
      evidenceOf(call).map((item) => item.text),
      ["resolve_lookup", "fallback_value"],
    );
    assert.deepEqual(
      evidenceOf({ ...call, intent: "look at resolve_lookup" }).map((item) => item.text),
      ["fallback_value"],
    );
  });
});

describe("blind, cline and deep-agents", () => {
  it("blindCut() keeps the first and last halves of the tokens, no more in all", () => {
    const cut = blindCut(file, 300);
    assert.ok(counter.count(cut) <= 300 + 2);
    assert.ok(cut.startsWith("    step_0 = run(0)") && cut.endsWith("step_1999 = run(1999)"));
    assert.equal(blindCut("short", 300), "short");
  });

  it("a blind policy cuts to the tokens its reference's view used, and keeps whole what the reference kept whole", async () => {
    const reference = createCorePolicy({ budgetTokens: 1000 });
    const blind = createBlindPolicy(reference, (text) => counter.count(text));
    assert.equal(blind.name, "blind:core:budget=1000");
    const view = await reference.view(row(1, file, ""), "s");
    const cut = await blind.view(row(1, file, ""), "s");
    assert.ok(Math.abs(counter.count(cut.firstView) - counter.count(view.firstView)) <= 2);
    assert.equal(cut.saved, false);
    assert.equal((await blind.view(row(1, "tiny", ""), "s")).firstView, "tiny");
  });

  it("a head policy keeps the first tokens of the reference's size, no more, and whole what the reference kept whole", async () => {
    const cut = headCut(file, 300);
    assert.ok(counter.count(cut) <= 300 + 2);
    assert.ok(cut.startsWith("    step_0 = run(0)") && cut.endsWith("\n…\n") && !cut.includes("step_1999"));
    assert.equal(headCut("short", 300), "short");
    const reference = createCorePolicy({ budgetTokens: 1000 });
    const head = createHeadPolicy(reference, (text) => counter.count(text));
    assert.equal(head.name, "head:core:budget=1000");
    const view = await reference.view(row(1, file, ""), "s");
    const viewed = await head.view(row(1, file, ""), "s");
    assert.ok(Math.abs(counter.count(viewed.firstView) - counter.count(view.firstView)) <= 2);
    assert.ok(file.startsWith(viewed.firstView.slice(0, -"\n…\n".length)));
    assert.equal((await head.view(row(1, "tiny", ""), "s")).firstView, "tiny");
  });

  it("cline cuts every result over 8,000 characters to 4,000 from each end; deep-agents saves results over 80,000 with a 5 + 5-line preview", async () => {
    const cline = await clinePolicy.view(row(1, file, ""), "s");
    assert.ok(cline.firstView.startsWith(file.slice(0, CLINE_LIMIT_CHARS / 2)) && cline.firstView.endsWith(file.slice(-CLINE_LIMIT_CHARS / 2)));
    assert.equal((await deepAgentsPolicy.view(row(1, file, ""), "s")).firstView, file);
    const large = file.repeat(3);
    const saved = await deepAgentsPolicy.view(row(1, large, ""), "s");
    assert.equal(saved.saved, true);
    assert.equal(saved.firstView.split("\n").length, 1 + 5 + 1 + 5);
    assert.equal((await saved.recover?.("resolve_lookup"))?.found, true);
  });
});

describe("core policy with intent, outputs over 8,000 characters", () => {
  it("keeps what the intent points at and counts the long output per kind", async () => {
    const trajectory: Trajectory = {
      agentSystem: "fixture",
      id: "t1",
      rows: [row(1, "ok", "Let me read the resolve_lookup call in src/app.py"), row(2, file, "change fallback_value")],
    };
    const prepared = prepareTrajectory(trajectory, counter);
    const plain = await scoreTrajectory(prepared, createCorePolicy(), counter);
    const guided = await scoreTrajectory(prepared, createCorePolicy({ intent: "on" }), counter);
    assert.deepEqual({ ...plain.long, viewTokens: 0 }, { outputs: 1, viewTokens: 0, evidence: 1, inView: 0, reachable: 1, names: 1, namesInView: 0 });
    assert.deepEqual({ ...guided.long, viewTokens: 0 }, { outputs: 1, viewTokens: 0, evidence: 1, inView: 1, reachable: 1, names: 1, namesInView: 1 });
    assert.deepEqual(Object.keys(guided.longByKind), ["file_read"]);
    assert.ok(guided.long.viewTokens <= 1600);
  });

  it("intent=recent passes the task and the issuing message alone: what an earlier step named does not steer it", async () => {
    const trajectory: Trajectory = {
      agentSystem: "fixture",
      id: "t1",
      rows: [
        row(1, "ok", "It must be the lookup.\n[bash] grep -n resolve_lookup src/app.py"),
        row(2, "ok", "Now the whole file."),
        row(3, file, "change fallback_value"),
      ],
    };
    const prepared = prepareTrajectory(trajectory, counter);
    assert.equal(prepared.rows[2]?.recentIntent, "Fix parse_header\n\nNow the whole file.");
    const whole = await scoreTrajectory(prepared, createCorePolicy({ intent: "on" }), counter);
    const recent = await scoreTrajectory(prepared, createCorePolicy({ intent: "recent" }), counter);
    assert.deepEqual([whole.long.evidence, whole.long.inView, recent.long.inView], [1, 1, 0]);
  });

  it("intent=oracle (a diagnostic ceiling) puts the call's own next action in the intent, while the evidence stays what the runtime's intent does not name", async () => {
    const trajectory: Trajectory = { agentSystem: "fixture", id: "t1", rows: [row(1, "ok", "Let me read src/app.py"), row(2, file, "change fallback_value")] };
    const prepared = prepareTrajectory(trajectory, counter);
    assert.match(prepared.rows[1]?.oracleIntent ?? "", /Let me read src\/app\.py\n\nFix parse_header\n\nchange fallback_value$/);
    const runtime = await scoreTrajectory(prepared, createCorePolicy({ intent: "on" }), counter);
    const oracle = await scoreTrajectory(prepared, createCorePolicy({ intent: "oracle" }), counter);
    assert.deepEqual([runtime.long.evidence, runtime.long.inView, oracle.long.evidence, oracle.long.inView], [1, 0, 1, 1]);
  });
});
