import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { create } from "@bufbuild/protobuf";
import { createTokenCounter } from "@loupe/projection";
import { ProjectRequestSchema, ToolKind } from "@loupe/proto";
import { createTokenCountPool, DEFAULT_MAX_PROJECTION_BYTES, type TokenCountPool } from "./count-pool.js";
import { projectDepsForTest } from "./project-test-deps.js";
import { project } from "./project.js";

const counter = createTokenCounter("o200k_base");
const run = (program: string, args: string[]): string => execFileSync(program, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

// Real program output of every size class: one that fits, cut ones under 8 KB, 8–64 KB and over 64 KB, a file read with an intent.
const history = run("git", ["log", "--stat", "-n", "200"]);
const listing = run("ls", ["-laR", "."]);
const calls = [
  { toolName: "bash", argsJson: "", text: history.slice(0, 1500), intent: "" },
  { toolName: "bash", argsJson: "", text: history.slice(0, 7000), intent: "" },
  { toolName: "bash", argsJson: "", text: listing.slice(0, 30_000), intent: "" },
  { toolName: "bash", argsJson: "", text: listing.slice(0, 100_000), intent: "" },
  {
    toolName: "Read",
    argsJson: JSON.stringify({ file_path: "services/gateway/src/project/project.ts" }),
    text: run("cat", ["services/gateway/src/project/project.ts"]),
    intent: "Where does Project decide between projectInThread and projectInCall?",
  },
];

function request(call: (typeof calls)[number], index: number) {
  return create(ProjectRequestSchema, {
    sessionId: `s${String(index)}`,
    intent: call.intent,
    result: { toolName: call.toolName, kind: ToolKind.UNSPECIFIED, argsJson: call.argsJson, parts: [{ content: { case: "text", value: call.text } }] },
  });
}

/** Asks until a thread is ready (the first asks start it and go back to the caller). */
async function whenReady(pool: TokenCountPool): Promise<void> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(20)) {
    const counted = pool.count("warm", "o200k_base");
    if (counted !== undefined) return void (await counted);
  }
  throw new Error("no thread became ready in 30 s");
}

describe("project() beside other calls", () => {
  const pool = createTokenCountPool({ workers: 1 });
  after(() => pool.close());

  it("projects in a thread when others run, with the same answers as each call alone", async () => {
    await whenReady(pool);
    const threaded: number[] = [];
    // The sizes of the results a thread took.
    const counting: TokenCountPool = {
      ...pool,
      project: (job) => {
        const taken = pool.project(job);
        if (taken !== undefined) threaded.push(job.bytes);
        return taken;
      },
    };
    const deps = { ...projectDepsForTest(counter), countPool: counting, running: { calls: 0 } };
    const alone = [];
    for (const [index, call] of calls.entries()) alone.push(await project(request(call, index), "local", deps));
    assert.equal(threaded.length, 0, "a call alone projects in its own thread");
    const together = await Promise.all(calls.map((call, index) => project(request(call, index), "local", deps)));
    // Every call but the first (alone when it starts) up to DEFAULT_MAX_PROJECTION_BYTES goes to the thread; a larger one stays.
    const small = calls.filter((call) => Buffer.byteLength(call.text) <= DEFAULT_MAX_PROJECTION_BYTES).length;
    assert.ok(small < calls.length, "the calls include one over the bound");
    assert.ok(threaded.length >= small - 1, `${String(threaded.length)} of ${String(small)} calls went to the thread`);
    assert.ok(
      threaded.every((bytes) => bytes <= DEFAULT_MAX_PROJECTION_BYTES),
      `a result over ${String(DEFAULT_MAX_PROJECTION_BYTES)} bytes went to the thread: ${threaded.join(", ")}`,
    );
    assert.deepEqual(together, alone);
    assert.equal(deps.running.calls, 0);
  });

  it("answers fail-open from a thread's projection as alone when the save fails (invariant 6)", async () => {
    await whenReady(pool);
    let threaded = 0;
    const counting: TokenCountPool = { ...pool, project: (job) => (threaded++, pool.project(job)) };
    const failing = () => Promise.reject(new Error("archive down"));
    const deps = { ...projectDepsForTest(counter, failing), countPool: counting, running: { calls: 0 } };
    const alone = [];
    for (const [index, call] of calls.entries()) alone.push(await project(request(call, index), "local", deps));
    const together = await Promise.all(calls.map((call, index) => project(request(call, index), "local", deps)));
    assert.ok(threaded >= calls.length - 2, `${String(threaded)} of ${String(calls.length)} calls went to the thread`);
    assert.deepEqual(together, alone);
    // Every call that saves with a working archive (it names its saved result) went fail-open; one that
    // fits saves nothing and answers archived, with no id (which of these fit depends on the checkout's
    // files: the history of a fresh copy lists them).
    const working = { ...projectDepsForTest(counter), countPool: pool };
    const saving = [];
    for (const [index, call] of calls.entries()) if ((await project(request(call, index), "local", working)).resultId !== "") saving.push(index);
    assert.ok(saving.length >= 2, `${String(saving.length)} of the calls save`);
    for (const index of saving) assert.ok(together[index]!.archived === false && together[index]!.resultId === "", `call ${String(index)} went fail-open`);
  });

  it("projects in its own thread when the projection thread fails", async () => {
    const failing: TokenCountPool = { ...pool, project: () => Promise.reject(new Error("thread gone")) };
    const deps = { ...projectDepsForTest(counter), countPool: failing, running: { calls: 0 } };
    const alone = await project(request(calls[2]!, 2), "local", { ...projectDepsForTest(counter), countPool: pool });
    const [first, second] = await Promise.all([project(request(calls[2]!, 2), "local", deps), project(request(calls[2]!, 2), "local", deps)]);
    assert.deepEqual(first, alone);
    assert.deepEqual(second, alone);
  });
});
