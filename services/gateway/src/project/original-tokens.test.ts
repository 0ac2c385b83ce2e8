import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AppError } from "@loupe/errors";
import { createCachingCounter, createTokenCounter, knownPrefix } from "@loupe/projection";
import { create } from "@bufbuild/protobuf";
import { ToolResultSchema } from "@loupe/proto";
import { resultContent } from "../tool-result-content.js";
import type { TokenCountPool } from "./count-pool.js";
import { spyCounter } from "./project-test-deps.js";
import { checkFit, countOriginal, originalTokensHere, WHOLE_COUNT_MAX_BYTES, POOLED_COUNT_MIN_CHARS } from "./original-tokens.js";
import { projectHere } from "./project-here.js";

const counter = createTokenCounter("o200k_base");
const contentOf = (text: string) => resultContent(create(ToolResultSchema, { toolName: "bash", parts: [{ content: { case: "text", value: text } }] }));
const long = Array.from({ length: 1200 }, (_, line) => `src/module_${String(line)}.ts:${String(line * 7)}: error TS2322`).join("\n");

/** A pool that answers with `answer` (a count, a failure, or no thread free), remembering what it was asked. */
function poolAnswering(answer: number | Error | undefined): { pool: TokenCountPool; asked: string[] } {
  const asked: string[] = [];
  const pool: TokenCountPool = {
    count: (text) => {
      asked.push(text);
      if (answer === undefined) return undefined;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    project: () => undefined,
    close: () => Promise.resolve(),
  };
  return { pool, asked };
}

describe("countOriginal", () => {
  it("after a fit check, a thread counts only the rest of the text; the sum is the whole text's count", async () => {
    const caching = createCachingCounter(counter);
    assert.equal(caching.within(long, 1600), false);
    const asked: string[] = [];
    const pool: TokenCountPool = {
      count: (text) => {
        asked.push(text);
        return Promise.resolve(counter.count(text));
      },
      project: () => undefined,
      close: () => Promise.resolve(),
    };
    assert.deepEqual(await countOriginal(contentOf(long), caching, true, false, pool)(), { tokens: counter.count(long), estimated: false });
    assert.equal(asked.length, 1);
    const rest = asked[0] ?? "";
    assert.ok(long.endsWith(rest) && rest.length < long.length - 4000, `the thread counted ${String(rest.length)} of ${String(long.length)} characters`);
  });

  it("in this thread, after a fit check, counts each line once: the fit check's lines are not counted again", async () => {
    const spy = spyCounter();
    const caching = createCachingCounter(spy.counter);
    assert.equal(caching.within(long, 1600), false);
    const fitChecked = [...spy.checked];
    const { pool } = poolAnswering(undefined);
    assert.deepEqual(await countOriginal(contentOf(long), caching, true, false, pool)(), { tokens: counter.count(long), estimated: false });
    const again = spy.counted;
    assert.ok(again.length > 0);
    assert.equal(
      again.filter((text) => fitChecked.includes(text)).length,
      // The line the fit check stopped in was found over its limit, not counted: it is counted once more.
      1,
    );
  });

  it("takes a fit check's count as it is, asking no thread", async () => {
    const { pool, asked } = poolAnswering(1);
    assert.deepEqual(await countOriginal(contentOf(long), counter, true, 321, pool)(), { tokens: 321, estimated: false });
    assert.deepEqual(asked, []);
  });

  it("uses a thread's count for a long original", async () => {
    const { pool, asked } = poolAnswering(counter.count(long));
    assert.deepEqual(await countOriginal(contentOf(long), counter, true, false, pool)(), { tokens: counter.count(long), estimated: false });
    assert.deepEqual(asked, [long]);
  });

  it("counts in this thread when the pool has no thread free, or its thread fails", async () => {
    for (const answer of [undefined, new AppError("internal", "token-count worker exited [code=1]")]) {
      const { pool, asked } = poolAnswering(answer);
      assert.deepEqual(await countOriginal(contentOf(long), counter, true, false, pool)(), { tokens: counter.count(long), estimated: false });
      assert.equal(asked.length, 1);
    }
  });

  it("counts a rest shorter than POOLED_COUNT_MIN_CHARS in this thread, only once asked, after the projection", async () => {
    const medium = long.slice(0, POOLED_COUNT_MIN_CHARS - 1);
    assert.ok(Buffer.byteLength(medium) >= WHOLE_COUNT_MAX_BYTES);
    const spy = spyCounter();
    const caching = createCachingCounter(spy.counter);
    const { pool, asked } = poolAnswering(1);
    const answer = countOriginal(contentOf(medium), caching, true, false, pool);
    assert.deepEqual([...spy.counted, ...spy.checked], [], "nothing counted before the answer is asked for");
    assert.deepEqual(await answer(), { tokens: counter.count(medium), estimated: false });
    assert.deepEqual(asked, []);
  });

  it("for a model without its own tokenizer, estimates from what the fit check counted, counting nothing more and asking no thread", async () => {
    const spy = spyCounter();
    const caching = createCachingCounter(spy.counter);
    assert.equal(caching.within(long, 1600), false);
    const known = knownPrefix(caching, long);
    assert.ok(known.chars > 4000 && known.chars < long.length);
    const before = spy.counted.length + spy.checked.length;
    const { pool, asked } = poolAnswering(1);
    const answer = await countOriginal(contentOf(long), caching, false, false, pool)();
    assert.equal(spy.counted.length + spy.checked.length, before, "nothing counted after the fit check");
    assert.deepEqual(asked, []);
    const bytes = Buffer.byteLength(long);
    const knownBytes = Buffer.byteLength(long.slice(0, known.chars));
    assert.deepEqual(answer, { tokens: known.tokens + Math.ceil(((bytes - knownBytes) * known.tokens) / knownBytes), estimated: true });
    const exact = counter.count(long);
    assert.ok(Math.abs(answer.tokens - exact) / exact < 0.05, `estimate ${String(answer.tokens)} against ${String(exact)}`);
  });

  it("a model without its own tokenizer still takes a whole count already made, marked estimated", async () => {
    const short = long.slice(0, WHOLE_COUNT_MAX_BYTES - 1);
    const { pool, asked } = poolAnswering(1);
    assert.deepEqual(await countOriginal(contentOf(short), counter, false, counter.count(short), pool)(), { tokens: counter.count(short), estimated: true });
    assert.deepEqual(asked, []);
  });

  it("the estimate is the same in a projection thread (projectHere) as in the call's thread", () => {
    const bytes = Buffer.byteLength(long);
    const caching = createCachingCounter(counter);
    const { counted } = checkFit(long, bytes, caching, 1600);
    assert.equal(counted, undefined);
    const here = originalTokensHere(long, bytes, caching, false, counted);
    const input = {
      toolName: "bash",
      declaredKind: undefined,
      argsJson: "",
      text: long,
      structuredOnly: false,
      isError: false,
      exitCode: 0,
      timedOut: false,
      durationMs: undefined,
    };
    const options = { budgetTokens: 1600, maxViewBytes: 50 * 1024, resultId: "r_x", view: "" };
    assert.deepEqual(projectHere(input, options, counter, bytes, false).original, here);
  });

  it("estimates an original above 64 KB from what the fit check counted, or from its bytes when nothing was counted; asks no thread", async () => {
    const huge = long.repeat(2);
    const bytes = Buffer.byteLength(huge);
    const { pool, asked } = poolAnswering(1);
    assert.deepEqual(await countOriginal(contentOf(huge), counter, true, false, pool)(), { tokens: Math.ceil(bytes / 4), estimated: true });
    const caching = createCachingCounter(counter);
    assert.equal(caching.within(huge, 1600), false);
    const estimate = await countOriginal(contentOf(huge), caching, true, false, pool)();
    const exact = counter.count(huge);
    assert.equal(estimate.estimated, true);
    assert.ok(Math.abs(estimate.tokens - exact) / exact < 0.05, `estimate ${String(estimate.tokens)} against ${String(exact)}`);
    assert.deepEqual(asked, []);
  });
});
