import assert from "node:assert/strict";
import { test } from "node:test";
import { createLogger } from "./logger.js";

function lines(): { lines: Record<string, unknown>[]; write: (line: string) => void } {
  const lines: Record<string, unknown>[] = [];
  return { lines, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) };
}

test("a logged error carries its name, message, code and the chain of its causes", () => {
  const out = lines();
  const logger = createLogger({ service: "test", write: out.write, now: () => 0 });
  const missing = Object.assign(new Error("Cannot find module 'x'"), { code: "ERR_MODULE_NOT_FOUND" });
  logger.warn("a thread failed", { error: new Error("worker failed", { cause: missing }) });
  assert.deepEqual(out.lines, [
    {
      time: "1970-01-01T00:00:00.000Z",
      level: "warn",
      service: "test",
      message: "a thread failed",
      error: { name: "Error", message: "worker failed", cause: { name: "Error", message: "Cannot find module 'x'", code: "ERR_MODULE_NOT_FOUND" } },
    },
  ]);
});

test("a cycle of causes ends after a few (the line stays finite), and a cause that is no error is kept as it is", () => {
  const out = lines();
  const logger = createLogger({ service: "test", write: out.write });
  const looped = new Error("a");
  looped.cause = looped;
  logger.error("looped", { error: looped, plain: new Error("b", { cause: "a reason" }) });
  let depth = 0;
  for (let error = out.lines[0]?.["error"] as { cause?: unknown } | undefined; error?.cause !== undefined; error = error.cause as { cause?: unknown }) depth++;
  assert.equal(depth, 4);
  assert.deepEqual(out.lines[0]?.["plain"], { name: "Error", message: "b", cause: "a reason" });
});

test("lines below the level are dropped", () => {
  const out = lines();
  const logger = createLogger({ service: "test", level: "warn", write: out.write });
  logger.info("dropped");
  logger.debug("dropped");
  logger.warn("kept");
  assert.deepEqual(
    out.lines.map((line) => line["message"]),
    ["kept"],
  );
});
