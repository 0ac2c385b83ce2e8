import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "@loupe/errors";
import { createTokenCounter, type TokenEncoding } from "@loupe/projection";
import { shellResult } from "@loupe/projection/testing";
import { createLogger } from "@loupe/runtime";
import { startTelemetry } from "@loupe/telemetry";
import { countThreadFailed, createTokenCountPool, MAX_START_FAILURES, type TokenCountPool } from "./count-pool.js";
import { projectHere } from "./project-here.js";

/** A projection job for `text`, as Project sends one (a shell call's output, a 500-token budget). */
function job(text: string) {
  return {
    input: shellResult(text),
    options: { budgetTokens: 500, maxViewBytes: 50 * 1024, resultId: "r_0123456789abcdef", view: "" },
    encoding: "o200k_base" as const,
    bytes: Buffer.byteLength(text),
    exact: true,
  };
}

/** Asks until a thread is ready (the first asks start it and go back to the caller). */
async function whenReady(pool: TokenCountPool): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const counted = pool.count("warm", "o200k_base");
    if (counted !== undefined) {
      await counted;
      return;
    }
    if (Date.now() > deadline) throw new Error("no counting thread became ready in 30 s");
    await sleep(20);
  }
}

// Real program output: this repository's history and listing, and a text outside ASCII.
const outputs = [
  execFileSync("git", ["log", "--stat", "-n", "40"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).slice(0, 60_000),
  execFileSync("ls", ["-laR", "."], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).slice(0, 60_000),
  "Ошибка: файл не найден — ファイルが見つかりません 🚫\n\t  \r\n".repeat(300),
];

describe("token-count pool", () => {
  const pools: TokenCountPool[] = [];
  const poolOf = (options: Parameters<typeof createTokenCountPool>[0]): TokenCountPool => {
    const pool = createTokenCountPool(options);
    pools.push(pool);
    return pool;
  };
  after(() => Promise.all(pools.map((pool) => pool.close())));

  it("leaves the first count to the caller while its thread starts, then counts as the caller's counter does, in both encodings", async () => {
    const pool = poolOf({ workers: 1, maxQueued: 8 });
    assert.equal(pool.count("x", "o200k_base"), undefined, "no thread is ready at first");
    await whenReady(pool);
    for (const encoding of ["o200k_base", "cl100k_base"] as TokenEncoding[]) {
      const counter = createTokenCounter(encoding);
      const jobs = outputs.map((text) => pool.count(text, encoding));
      assert.ok(
        jobs.every((job) => job !== undefined),
        "three jobs fit a queue of eight",
      );
      const counts = await Promise.all(jobs);
      assert.deepEqual(
        counts,
        outputs.map((text) => counter.count(text)),
        encoding,
      );
    }
  });

  it("gives each thread at most maxQueued jobs; more go back to the caller, and it takes them again once answered", async () => {
    const pool = poolOf({ workers: 1, maxQueued: 2 });
    await whenReady(pool);
    const first = pool.count(outputs[0]!, "o200k_base");
    const second = pool.count(outputs[1]!, "o200k_base");
    assert.ok(first !== undefined && second !== undefined);
    assert.equal(pool.count(outputs[2]!, "o200k_base"), undefined, "a third job waits in no queue");
    await Promise.all([first, second]);
    const again = pool.count(outputs[2]!, "o200k_base");
    assert.equal(await again, createTokenCounter("o200k_base").count(outputs[2]!));
  });

  it("projects as projectHere does in this thread, and queues up to maxQueuedProjections projections where counts stop at maxQueued", async () => {
    const pool = poolOf({ workers: 1, maxQueued: 1, maxQueuedProjections: 3 });
    await whenReady(pool);
    const jobs = outputs.map(job);
    const answers = jobs.map((each) => pool.project(each));
    assert.ok(answers.every((answer) => answer !== undefined));
    assert.equal(pool.count("one", "o200k_base"), undefined, "a count finds the queue full");
    assert.equal(pool.project(job("four")), undefined, "a fourth projection too");
    const here = jobs.map((each) => projectHere(each.input, each.options, createTokenCounter("o200k_base"), each.bytes, each.exact));
    assert.deepEqual(await Promise.all(answers), here);
  });

  it("leaves a result over maxProjectionBytes to the caller's thread, and takes one at the bound", async () => {
    const pool = poolOf({ workers: 1, maxProjectionBytes: 1000 });
    await whenReady(pool);
    assert.equal(pool.project(job("x".repeat(1001))), undefined, "over the bound");
    const taken = pool.project(job("x".repeat(1000)));
    assert.ok(taken !== undefined, "at the bound");
    await taken;
  });

  it("rejects a job its thread cannot count, and goes on counting", async () => {
    const pool = poolOf({ workers: 1 });
    await whenReady(pool);
    await assert.rejects(pool.count("text", "p50k_base" as TokenEncoding)!, (error: unknown) => error instanceof AppError && error.code === "internal");
    assert.equal(await pool.count("one two three", "o200k_base"), createTokenCounter("o200k_base").count("one two three"));
  });

  it("on close rejects what its threads still owed and takes nothing more", async () => {
    const pool = poolOf({ workers: 1 });
    await whenReady(pool);
    const owed = pool.count(outputs[0]!.repeat(40), "o200k_base");
    assert.ok(owed !== undefined);
    const rejected = assert.rejects(owed, (error: unknown) => error instanceof AppError && error.code === "internal");
    await pool.close();
    await rejected;
    assert.equal(pool.count("x", "o200k_base"), undefined);
  });

  it("stops starting threads after MAX_START_FAILURES fail before they are ready, saying so", async () => {
    const failures: boolean[] = [];
    const pool = poolOf({ workers: 1, module: "no-such-count-worker", onThreadFailure: (_error, gaveUp) => failures.push(gaveUp) });
    const deadline = Date.now() + 60_000;
    while (failures.length < MAX_START_FAILURES && Date.now() < deadline) {
      assert.equal(pool.count("x", "o200k_base"), undefined, "a thread that never got ready counts nothing");
      await sleep(50);
    }
    assert.deepEqual(failures, [...Array.from({ length: MAX_START_FAILURES - 1 }, () => false), true]);
    await sleep(300);
    assert.equal(pool.count("x", "o200k_base"), undefined);
    assert.equal(failures.length, MAX_START_FAILURES, "no thread is started after the pool gave up");
  });

  it("a thread that fails is logged with its cause and counted in loupe_worker_threads_failed_total", async () => {
    const telemetry = startTelemetry({ serviceName: "count-pool-test", env: {} });
    const lines: string[] = [];
    const failed = countThreadFailed(createLogger({ service: "test", write: (line) => lines.push(line) }));
    const failures: boolean[] = [];
    const pool = poolOf({ workers: 1, module: "no-such-count-worker", onThreadFailure: (error, gaveUp) => (failed(error, gaveUp), failures.push(gaveUp)) });
    try {
      // A thread that never gets ready counts nothing: each ask goes back to the caller (and starts the next thread).
      for (const deadline = Date.now() + 60_000; failures.length < MAX_START_FAILURES && Date.now() < deadline; await sleep(50)) {
        assert.equal(pool.count("x", "o200k_base"), undefined);
      }
      const text = await telemetry.metricsText();
      assert.match(text, /^loupe_worker_threads_failed_total\{[^}]*gave_up="false"[^}]*\} 2\b/m);
      assert.match(text, /^loupe_worker_threads_failed_total\{[^}]*gave_up="true"[^}]*\} 1\b/m);
      // The log names the module the thread could not load.
      assert.equal(lines.length, MAX_START_FAILURES);
      assert.match(lines.at(-1) ?? "", /keep failing to start.*"cause":\{[^}]*no-such-count-worker/);
    } finally {
      await pool.close();
      await telemetry.shutdown();
    }
  });

  it("with no threads never counts", () => {
    assert.equal(poolOf({ workers: 0 }).count("x", "o200k_base"), undefined);
  });
});
