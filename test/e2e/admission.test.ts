import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLoupeClient, type LoupeClient } from "@loupe/client";
import { isAppError, type AppError } from "@loupe/errors";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";

const project = (client: LoupeClient, index: number) =>
  client.project({
    sessionId: `load-${String(index)}`,
    result: { toolName: "bash", parts: [{ content: { case: "text", value: numberedLines(4000, `call ${String(index)}`) } }] },
  });

describe("no silent degradation: overload is shed with UNAVAILABLE and when to retry, never fail-open", () => {
  let loupe: EmbeddedLoupe;
  let client: LoupeClient;

  before(async () => {
    loupe = await startEmbeddedLoupe({ LOUPE_MAX_IN_FLIGHT: "2", LOUPE_ADMISSION_WAIT_MS: "0" });
    client = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}`, retries: 0 });
  });
  after(async () => {
    client.close();
    await loupe.stop();
  });

  it("admits at most the process's in-flight limit, saves every admitted answer, and sheds the rest at once", async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, index) => project(client, index).catch((error: unknown) => error)));
    const shed = answers.filter((answer): answer is AppError => isAppError(answer));
    const served = answers.filter((answer) => !isAppError(answer)) as Awaited<ReturnType<typeof project>>[];
    assert.ok(shed.length > 0, "40 concurrent calls over a limit of 2 with no wait shed some");
    assert.ok(served.length >= 2, "the admitted ones are served");
    for (const error of shed) {
      assert.equal(error.code, "unavailable");
      assert.equal(error.reason, "overloaded");
      assert.equal(error.retryAfterMs, 250, "the pushback travels as grpc-retry-pushback-ms");
    }
    for (const answer of served) assert.equal(answer.archived, true, "an admitted call is saved, never fail-open");
    assert.ok(
      answers.every((answer) => !isAppError(answer) || answer.code === "unavailable"),
      "nothing else fails",
    );
  });

  it("answers the HTTP API's shed calls 503 with Retry-After", async () => {
    const post = () =>
      fetch(`http://127.0.0.1:${String(loupe.httpPort)}/v1/project`, {
        method: "POST",
        body: JSON.stringify({ session_id: "http", result: { tool_name: "bash", parts: [{ text: numberedLines(4000) }] } }),
      });
    const responses = await Promise.all(Array.from({ length: 30 }, post));
    const shed = responses.filter((response) => response.status === 503);
    assert.ok(shed.length > 0);
    assert.ok(responses.every((response) => response.status === 200 || response.status === 503));
    assert.equal(shed[0]?.headers.get("retry-after"), "1");
  });
});

describe("per-tenant rate limit (LOUPE_RATE_LIMIT_PER_SECOND)", () => {
  let loupe: EmbeddedLoupe;
  let client: LoupeClient;

  before(async () => {
    loupe = await startEmbeddedLoupe({ LOUPE_RATE_LIMIT_PER_SECOND: "5" });
    client = createLoupeClient({ address: `127.0.0.1:${String(loupe.grpcPort)}`, retries: 0 });
  });
  after(async () => {
    client.close();
    await loupe.stop();
  });

  it("answers calls over the rate RESOURCE_EXHAUSTED (rate_limited) with when to retry, and 429 on HTTP", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => client.recover({ resultId: `r_${"a".repeat(31)}${String(index % 10)}` }).catch((error: unknown) => error)),
    );
    const limited = answers.filter((answer): answer is AppError => isAppError(answer) && answer.code === "resource_exhausted");
    assert.ok(limited.length >= 10, `a burst of 5 passes, then one per 200 ms: ${String(limited.length)} limited`);
    for (const error of limited) {
      assert.equal(error.reason, "rate_limited");
      assert.ok(error.retryAfterMs !== undefined && error.retryAfterMs > 0 && error.retryAfterMs <= 1000);
    }
    const responses = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`http://127.0.0.1:${String(loupe.httpPort)}/v1/recover`, { method: "POST", body: JSON.stringify({ result_id: `r_${"b".repeat(32)}` }) }),
      ),
    );
    const tooMany = responses.find((response) => response.status === 429);
    assert.ok(tooMany, responses.map((response) => response.status).join(","));
    assert.ok(Number(tooMany.headers.get("retry-after")) >= 1);
  });
});
