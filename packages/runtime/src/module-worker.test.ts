import assert from "node:assert/strict";
import { once } from "node:events";
import { test } from "node:test";
import { conditionFlags, startModuleWorker } from "./module-worker.js";

test("a worker resolves the workspace's packages as its starting thread does (sources, not compiled output, when run from sources)", async () => {
  const worker = startModuleWorker(import.meta.url, "testing/module-worker-probe");
  try {
    const [message] = (await once(worker, "message")) as [{ resolved: string; execArgv: string[] }];
    assert.equal(message.resolved, import.meta.resolve("@loupe/errors"));
    // Only the export conditions pass: a profiler or loader flag of this process does not.
    assert.deepEqual(message.execArgv, conditionFlags(process.execArgv));
  } finally {
    await worker.terminate();
  }
});

test("conditionFlags keeps node's export conditions in each spelling node takes, and nothing else", () => {
  assert.deepEqual(conditionFlags(["--conditions=source", "--import", "tsx", "--cpu-prof"]), ["--conditions=source"]);
  assert.deepEqual(conditionFlags(["--conditions", "source", "-C", "development"]), ["--conditions=source", "--conditions=development"]);
  assert.deepEqual(conditionFlags(["--import", "tsx", "--conditions"]), []);
  assert.deepEqual(conditionFlags([]), []);
});
