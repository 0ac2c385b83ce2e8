import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { createOutputFile } from "./pre-tool-use.js";
import { callText, composeIntent, unwrapShellCommand } from "@loupe/client/intent";
import { wrapShellCommand, type LoupeInvocation } from "./wrap-shell-command.js";

const run = promisify(execFile);

// Stands in for `loupe`: prints what `exec --report` was given, the output file's content included.
const FAKE_LOUPE: LoupeInvocation = {
  argv: [
    process.execPath,
    "-e",
    "const a=process.argv.slice(1);const v=(f)=>a[a.indexOf(f)+1];process.stdout.write(`REPORT exit=${v('--exit-code')} start=${v('--start-seconds')}\\n`+require('fs').readFileSync(v('--report'),'utf8'))",
  ],
};

/** Command or process substitution outside single quotes, as a shell (and Gemini CLI's check) sees it. */
function hasSubstitution(command: string): boolean {
  const unquoted = command.replace(/'[^']*'/g, "''");
  return /\$\(|`|[<>]\(/.test(unquoted);
}

describe("wrapShellCommand()", () => {
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "loupe-wrap-"));
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  const wrap = (command: string, outputFile = join(folder, "unused.out")): string =>
    wrapShellCommand(command, FAKE_LOUPE, { sessionId: "s", source: "app", toolName: "Bash", outputFile });

  it("unwraps to the agent's own command (what a runtime that records the rewritten one gives the intent)", () => {
    const commands = ["make test", "cat <<'EOF'\nit's here\nEOF", "cd src && exit 1", "echo '} >\"$x\" 2>&1; done'\nls"];
    for (const command of commands) {
      const wrapped = wrapShellCommand(command, FAKE_LOUPE, {
        sessionId: "s",
        source: "app",
        toolName: "Bash",
        outputFile: join(folder, "a1b2c3642.out"),
        contextFile: join(folder, "d4e5f6.context"),
      });
      assert.equal(unwrapShellCommand(wrapped), command);
      assert.equal(unwrapShellCommand(`[bash] ${wrapped} Run it\n[read] a.py`), `[bash] ${command} Run it\n[read] a.py`, "inside a rendered call");
      assert.equal(unwrapShellCommand(`[bash] ${wrapped.slice(0, wrapped.indexOf("--session"))}`), `[bash] ${command}`, "a wrapper cut short");
    }
    assert.equal(composeIntent("task", "asking", [`[bash] ${wrap("make test")}`]), "[bash] make test\n\ntask\n\nasking");
    assert.equal(unwrapShellCommand("ls -la"), "ls -la");
    assert.equal(callText("bash", { command: wrap("grep -n value_1234 big.txt"), description: "Find it" }), "[bash] grep -n value_1234 big.txt Find it");
  });

  it("adds no command or process substitution of its own", () => {
    assert.equal(hasSubstitution(wrap("make test")), false);
    assert.equal(hasSubstitution("echo $(date)"), true, "the checker sees one");
  });

  for (const shell of ["bash", "sh"]) {
    it(`runs in the agent's own ${shell}: output reported, status kept, cd kept, output file removed`, async () => {
      const outputFile = createOutputFile(folder);
      const script = `${wrap(`cd ${folder} && echo one && echo two >&2 && false`, outputFile)}\necho "status=$? cwd=$PWD"`;
      const { stdout } = await run(shell, ["-c", script]);
      assert.match(stdout, /^REPORT exit=1 start=\d*\none\ntwo\nstatus=1 cwd=/);
      assert.ok(stdout.trimEnd().endsWith(`cwd=${folder}`), stdout);
      assert.ok(!(await readdir(folder)).includes(basename(outputFile)));
    });
  }

  it("passes the runtime's transcript and the call's id, so loupe exec reads the call's intent", async () => {
    const FLAGS: LoupeInvocation = {
      argv: [
        process.execPath,
        "-e",
        "const a=process.argv.slice(1);const v=(f)=>a[a.indexOf(f)+1];process.stdout.write(`${v('--runtime')}|${v('--transcript')}|${v('--tool-use-id')}\\n`)",
      ],
    };
    const transcript = { runtime: "claude-code", path: join(folder, "it's a transcript.jsonl"), toolUseId: "toolu_01" };
    const wrapped = wrapShellCommand("true", FLAGS, { sessionId: "s", source: "app", toolName: "Bash", outputFile: createOutputFile(folder), transcript });
    const { stdout } = await run("bash", ["-c", wrapped]);
    assert.equal(stdout, `claude-code|${transcript.path}|toolu_01\n`);
    assert.doesNotMatch(wrap("true"), /--transcript/, "none without a transcript");
    assert.equal(hasSubstitution(wrapped), false);
  });

  it("runs a command that ends the shell in a subshell", async () => {
    const { stdout } = await run("bash", ["-c", `${wrap("echo bye; exit 3", createOutputFile(folder))}\necho "status=$?"`]);
    assert.match(stdout, /^REPORT exit=3 start=\d+\nbye\nstatus=3\n$/);
  });
});

describe("createOutputFile()", () => {
  it("creates an empty file readable by its owner alone, with a new name each time", async () => {
    const folder = await mkdtemp(join(tmpdir(), "loupe-wrap-"));
    try {
      const [one, two] = [createOutputFile(folder), createOutputFile(folder)];
      assert.notEqual(one, two);
      const { stat } = await import("node:fs/promises");
      const info = await stat(one);
      assert.equal(info.size, 0);
      assert.equal(info.mode & 0o777, 0o600);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
