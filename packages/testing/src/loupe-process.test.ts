import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { repoRoot } from "./repo-root.js";

const run = promisify(execFile);

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("startLoupeProcess()", () => {
  it("leaves no child running once the process that started it exits without stopping it", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "loupe-reap-"));
    try {
      // A test process whose hooks never stop the server they started: it prints the server's pid and exits.
      const script = [
        `import { startLoupeProcess } from "./packages/testing/src/loupe-process.ts";`,
        `const loupe = startLoupeProcess(["serve"], { LOUPE_DATA_DIR: ${JSON.stringify(dataDir)}, LOUPE_GRPC_PORT: "0", LOUPE_HTTP_PORT: "0" });`,
        `await loupe.waitFor(/loupe is serving/);`,
        `console.log(loupe.child.pid);`,
        `process.exit(0);`,
      ].join("\n");
      const { stdout } = await run(process.execPath, ["--conditions=source", "--import", "tsx", "--input-type=module", "-e", script], { cwd: repoRoot() });
      const pid = Number(stdout.trim());
      assert.ok(Number.isInteger(pid) && pid > 0, stdout);
      const deadline = Date.now() + 5000;
      while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      if (isAlive(pid)) process.kill(pid, "SIGKILL");
      assert.equal(isAlive(pid), false, "the server was killed with the process that started it");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
