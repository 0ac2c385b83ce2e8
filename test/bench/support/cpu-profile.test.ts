import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startLoupeProcess } from "@loupe/testing";
import { moduleOf, summarizeProfile, type CpuProfile } from "./cpu-profile.js";

// A script that spends most of its time in one function, called from another.
const SPIN = `
function spin(ms) { const end = Date.now() + ms; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1); return x; }
function outer() { return spin(300); }
outer();
`;

async function onlyProfile(dir: string): Promise<CpuProfile> {
  const files = (await readdir(dir)).filter((name) => name.endsWith(".cpuprofile"));
  assert.ok(files.length >= 1, `a profile was written in ${dir}`);
  return JSON.parse(await readFile(join(dir, files.sort()[0] ?? ""), "utf8")) as CpuProfile;
}

describe("CPU profile summaries", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "loupe-cpu-profile-"));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it("put a real profile's time in the function that spent it, and in its caller's stack time", async () => {
    const script = join(dir, "spin.mjs");
    await writeFile(script, SPIN);
    const profiles = join(dir, "spin");
    execFileSync(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profiles}`, script]);
    const summary = summarizeProfile(await onlyProfile(profiles));
    assert.ok(summary.busyMs >= 250 && summary.busyMs <= summary.totalMs, `busy ${String(summary.busyMs)} of ${String(summary.totalMs)} ms`);
    const spin = summary.functions.find((line) => line.name.startsWith("spin spin.mjs:2"));
    const outer = summary.functions.find((line) => line.name.startsWith("outer spin.mjs:3"));
    assert.ok(
      spin !== undefined && outer !== undefined,
      summary.functions
        .slice(0, 5)
        .map((line) => line.name)
        .join(", "),
    );
    assert.ok(spin.ms >= 0.8 * summary.busyMs - 50, `spin ${String(spin.ms)} of ${String(summary.busyMs)} ms busy`);
    assert.ok(outer.ms >= spin.ms, "a caller is on the stack whenever its callee is");
    assert.equal(summary.modules[0]?.name, "spin.mjs");
  });

  it("profile a Loupe process started with LOUPE_TEST_NODE_FLAGS", { timeout: 60_000 }, async () => {
    const profiles = join(dir, "loupe");
    const loupe = startLoupeProcess(["help"], { LOUPE_TEST_NODE_FLAGS: `--cpu-prof  --cpu-prof-dir=${profiles}` });
    assert.equal(await loupe.exited, 0, loupe.lines.join("\n"));
    // The process loaded tsx (the flags came before it) and spent time doing so.
    const summary = summarizeProfile(await onlyProfile(profiles));
    assert.ok(summary.busyMs > 0);
    assert.ok(
      summary.modules.some((line) => line.name === "tsx"),
      summary.modules.map((line) => line.name).join(", "),
    );
  });

  it("name modules by workspace folder, npm package or node module", () => {
    assert.equal(moduleOf("file:///x/packages/projection/src/fast-count.ts", "count"), "packages/projection/src");
    assert.equal(moduleOf("file:///x/services/gateway/src/project/project.ts", "project"), "services/gateway/src");
    assert.equal(moduleOf("file:///x/node_modules/.pnpm/lmdb@3.4.2/node_modules/lmdb/write.js", "put"), "lmdb");
    assert.equal(moduleOf("file:///x/node_modules/.pnpm/@grpc+grpc-js@1.14.0/node_modules/@grpc/grpc-js/build/src/server.js", "f"), "@grpc/grpc-js");
    assert.equal(moduleOf("node:internal/http2/core", "emit"), "node:internal/http2/core");
    assert.equal(moduleOf("", "(garbage collector)"), "(garbage collector)");
    assert.equal(moduleOf("", "writeBuffer"), "(native)");
  });
});
