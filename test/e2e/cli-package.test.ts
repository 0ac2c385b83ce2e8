import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "@loupe/testing";
import { numberedLines } from "../support/fixtures.js";

const run = promisify(execFile);
// npm's cache is content-addressed and safe to share: after the first run the install needs no network.
const NPM_CACHE = join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "loupe-test-npm");

/** Runs the installed `loupe` with `input` on stdin. */
function loupe(bin: string, args: string[], input: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child =
    bin === "sh"
      ? spawn("/bin/sh", ["-c", args.join(" ")], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] })
      : spawn(bin, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the loupe command as a package: packed, installed globally, run", () => {
  let work: string;
  let bin: string;
  let server: ReturnType<typeof spawn> | undefined;
  let address = "";
  let serverLog = "";

  before(async () => {
    work = await mkdtemp(join(tmpdir(), "loupe-package-"));
    const { stdout } = await run(process.execPath, [join(repoRoot(), "scripts/pack-cli.mjs"), "--out", work], { cwd: repoRoot() });
    const tarball = stdout.trim();
    assert.match(tarball, /loupe-context-\d+\.\d+\.\d+\.tgz$/);
    const prefix = join(work, "global");
    await run("npm", ["install", "--global", "--prefix", prefix, "--cache", NPM_CACHE, "--prefer-offline", "--no-audit", "--no-fund", tarball], {
      timeout: 240_000,
    });
    bin = join(prefix, "bin", "loupe");
    server = spawn(bin, ["serve"], {
      env: { ...process.env, LOUPE_DATA_DIR: join(work, "data"), LOUPE_GRPC_PORT: "0", LOUPE_HTTP_PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the installed loupe serve did not start")), 60_000);
      server?.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        serverLog += chunk;
        const grpc = /"loupe is serving \(embedded\)","grpc":"([^"]+)"/.exec(chunk)?.[1];
        if (grpc === undefined) return;
        clearTimeout(timer);
        resolve(grpc);
      });
    });
  });
  after(async () => {
    server?.kill("SIGTERM");
    if (server !== undefined && server.exitCode === null) await new Promise((resolve) => server?.once("exit", resolve));
    await rm(work, { recursive: true, force: true });
  });

  it("is named so that it does not collide with another package, and runs from its bin", async () => {
    const help = await loupe(bin, ["help"], "");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: loupe <command>/);
  });

  it("serves embedded Loupe, projects a long output and recovers the omitted lines, reading LOUPE_ADDR", async () => {
    const original = numberedLines(4000);
    const projected = await loupe(bin, ["project", "--tool", "bash", "--json"], original, { LOUPE_ADDR: address });
    assert.equal(projected.code, 0, projected.stderr);
    const response = JSON.parse(projected.stdout) as { omissions: Array<{ continuationJson: string; startLine: number; endLine: number }> };
    const omission = response.omissions[0]!;
    const recovered = await loupe(bin, ["recover", omission.continuationJson, "--all"], "", { LOUPE_ADDR: address });
    assert.equal(
      recovered.stdout,
      original
        .split("\n")
        .slice(omission.startLine - 1, omission.endLine)
        .join("\n") + "\n",
    );
  });

  it("counts long originals in its counting thread, whose module the package carries", async () => {
    // The first long original starts the thread (and is counted in the call's thread); a thread that cannot load
    // its module is logged as it fails.
    const original = numberedLines(1000); // 55 KB: counted exactly, in the thread
    for (let call = 0; call < 3; call++) {
      const projected = await loupe(bin, ["project", "--tool", "bash", "--json"], original, { LOUPE_ADDR: address });
      assert.equal(projected.code, 0, projected.stderr);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    assert.doesNotMatch(serverLog, /token-count thread/);
  });

  it("runs the hook: a long Bash output becomes Loupe's view, in Bash's own shape", async () => {
    const payload = {
      session_id: "pkg",
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "make" },
      tool_response: { stdout: numberedLines(3000), stderr: "", interrupted: false, isImage: false },
    };
    const hook = await loupe(bin, ["hook", "post-tool-use"], JSON.stringify(payload), { LOUPE_ADDR: address });
    assert.equal(hook.code, 0);
    const output = JSON.parse(hook.stdout) as { hookSpecificOutput: { updatedToolOutput: { stdout: string } } };
    assert.match(output.hookSpecificOutput.updatedToolOutput.stdout, /\[loupe\] lines [\d,]+–[\d,]+ of 3,000 omitted/);
  });

  it("sets Claude Code up with hooks that run this installed loupe by its absolute paths, whatever PATH holds", async () => {
    const home = join(work, "home");
    const setup = await loupe(bin, ["setup", "claude-code"], "", { HOME: home });
    assert.equal(setup.code, 0, setup.stderr);
    const settings = JSON.parse(await readFile(join(home, ".claude", "settings.json"), "utf8")) as {
      hooks: Record<string, Array<{ matcher: string; hooks: Array<{ command: string }> }>>;
    };
    const command = settings.hooks["PostToolUse"]?.[0]?.hooks[0]?.command ?? "";
    assert.ok(command.startsWith(`'${process.execPath}' '${join(work, "global")}/`) && command.endsWith(`' 'hook' 'post-tool-use'`), command);
    const payload = {
      session_id: "pkg-setup",
      hook_event_name: "PostToolUse",
      tool_name: "Read",
      tool_input: { file_path: "/x/log.txt" },
      tool_response: { content: numberedLines(3000) },
    };
    const hook = await loupe("sh", [command], JSON.stringify(payload), { LOUPE_ADDR: address, PATH: "/nonexistent" });
    assert.equal(hook.code, 0, hook.stderr);
    assert.match(hook.stdout, /\[loupe\] lines [\d,]+–[\d,]+ of 3,000 omitted/);
  });
});
