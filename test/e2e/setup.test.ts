import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "@loupe/testing";
import { runLoupeCommand } from "../support/run-loupe-command.js";

interface Group {
  matcher: string;
  hooks: Array<{ type: string; command: string }>;
}
type Json = Record<string, unknown>;

const readJson = async (path: string): Promise<Json> => JSON.parse(await readFile(path, "utf8")) as Json;
const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );
const hooksOf = (settings: Json, event: string): Group[] => (settings["hooks"] as Record<string, Group[]>)[event] ?? [];

describe("loupe setup", () => {
  let root: string;
  let home: string;
  let project: string;
  let env: Record<string, string>;
  const setup = (args: string[], cwd = project) => runLoupeCommand(["setup", ...args], "", env, cwd);

  before(async () => {
    root = await mkdtemp(join(tmpdir(), "loupe-setup-"));
    home = join(root, "home");
    project = join(root, "project");
    await mkdir(project, { recursive: true });
    env = { HOME: home, CODEX_HOME: join(home, ".codex"), XDG_CONFIG_HOME: join(home, ".config") };
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("claude-code: adds both hooks running this loupe to the user's settings, keeps the rest, updates an older Loupe hook, and changes nothing the second time", async () => {
    const path = join(home, ".claude", "settings.json");
    await mkdir(join(home, ".claude"), { recursive: true });
    const formatter = { matcher: "Edit", hooks: [{ type: "command", command: "prettier --write" }] };
    await writeFile(
      path,
      JSON.stringify({
        model: "opus",
        hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "loupe hook pre-tool-use" }] }, formatter] },
      }),
    );
    const first = await setup(["claude-code"]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /settings\.json: PreToolUse hook \(Bash\|Grep\) updated; PostToolUse hook \(Read\|Grep\|mcp__\.\*\) added\n/);
    assert.match(first.stdout, /\nnext: for the MCP server .*claude mcp add --scope user loupe -- .*'mcp'\n$/);
    const settings = await readJson(path);
    assert.equal(settings["model"], "opus");
    const [pre, other] = hooksOf(settings, "PreToolUse");
    assert.equal(pre?.matcher, "Bash|Grep");
    assert.match(
      pre?.hooks[0]?.command ?? "",
      /^'.*node[^']*' .*\/services\/loupe\/src\/main\.ts' 'hook' 'pre-tool-use'$/,
      "this loupe, by its absolute paths",
    );
    assert.deepEqual(other, formatter);
    assert.equal(hooksOf(settings, "PostToolUse")[0]?.hooks[0]?.command, pre?.hooks[0]?.command.replace("pre-tool-use", "post-tool-use"));

    const second = await setup(["claude-code"]);
    assert.match(second.stdout, /PreToolUse hook \(Bash\|Grep\) unchanged; PostToolUse hook \(Read\|Grep\|mcp__\.\*\) unchanged/);
    assert.deepEqual(await readJson(path), settings);
  });

  it("--remove takes out what Loupe put there and nothing else, and says so", async () => {
    const claude = join(home, ".claude", "settings.json");
    const removed = await setup(["claude-code", "--remove"]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(
      removed.stdout,
      /settings\.json: PreToolUse hook removed; PostToolUse hook removed\nnext: for the MCP server run: claude mcp remove --scope user loupe\n$/,
    );
    assert.deepEqual(await readJson(claude), {
      model: "opus",
      hooks: { PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "prettier --write" }] }] },
    });
    assert.match((await setup(["claude-code", "--remove"])).stdout, /PreToolUse hook absent; PostToolUse hook absent/);

    const toml = join(home, ".codex", "config.toml");
    await mkdir(join(home, ".codex"), { recursive: true });
    await writeFile(toml, 'model = "gpt-5.5"\n');
    await setup(["codex", "--loupe", "loupe"]);
    // What the user added under Loupe's table goes with it.
    await writeFile(toml, `${await readFile(toml, "utf8")}\n[mcp_servers.loupe.env]\nLOUPE_ADDR = "127.0.0.1:50051"\n\n[features]\nplugins = false\n`);
    await setup(["opencode", "--loupe", "loupe"]);
    const codex = await setup(["codex", "--remove"]);
    assert.match(codex.stdout, /hooks\.json: PostToolUse hook removed\n.*config\.toml: MCP server loupe removed\n$/s);
    assert.equal(await readFile(toml, "utf8"), 'model = "gpt-5.5"\n\n[features]\nplugins = false\n', "the user's TOML as it was, the next table kept");
    assert.deepEqual(await readJson(join(home, ".codex", "hooks.json")), {});
    const opencode = await setup(["opencode", "--remove"]);
    assert.match(opencode.stdout, /loupe\.js: Loupe's plugin removed\n.*opencode\.json: MCP server loupe removed\n$/s);
    assert.equal(await exists(join(home, ".config", "opencode", "plugin", "loupe.js")), false);
    await rm(join(home, ".codex"), { recursive: true });
    await rm(join(home, ".config"), { recursive: true });
  });

  it("claude-code --project: the project's settings and its .mcp.json; --loupe names the command to run", async () => {
    const run = await setup(["claude-code", "--project", "--loupe", "loupe"]);
    assert.equal(run.code, 0, run.stderr);
    const settings = await readJson(join(project, ".claude", "settings.json"));
    assert.deepEqual(hooksOf(settings, "PreToolUse"), [{ matcher: "Bash|Grep", hooks: [{ type: "command", command: "'loupe' 'hook' 'pre-tool-use'" }] }]);
    assert.deepEqual(await readJson(join(project, ".mcp.json")), { mcpServers: { loupe: { command: "loupe", args: ["mcp"] } } });
    assert.doesNotMatch(run.stdout, /next:/);
  });

  it("gemini-cli: its BeforeTool hook for shell commands and a trusted MCP server", async () => {
    const run = await setup(["gemini-cli", "--loupe", "loupe"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(await readJson(join(home, ".gemini", "settings.json")), {
      hooks: { BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "'loupe' 'hook' 'pre-tool-use'" }] }] },
      mcpServers: { loupe: { command: "loupe", args: ["mcp"], trust: true } },
    });
  });

  it("codex: its PostToolUse hook, and [mcp_servers.loupe] appended to config.toml unless the user has one; no project scope", async () => {
    const toml = join(home, ".codex", "config.toml");
    await mkdir(join(home, ".codex"), { recursive: true });
    await writeFile(toml, 'model = "gpt-5.5"\n\n[features]\nplugins = false\n', { mode: 0o600 });
    const run = await setup(["codex", "--loupe", "/opt/loupe/bin/loupe"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\nnext: Codex runs a new hook only once you have reviewed and trusted it/);
    assert.deepEqual(await readJson(join(home, ".codex", "hooks.json")), {
      hooks: { PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "'/opt/loupe/bin/loupe' 'hook' 'post-tool-use'" }] }] },
    });
    const written = await readFile(toml, "utf8");
    assert.equal(written, 'model = "gpt-5.5"\n\n[features]\nplugins = false\n\n[mcp_servers.loupe]\ncommand = "/opt/loupe/bin/loupe"\nargs = ["mcp"]\n');
    assert.equal((await stat(toml)).mode & 0o777, 0o600, "the file keeps its permissions");
    const again = await setup(["codex", "--loupe", "/opt/loupe/bin/loupe"]);
    assert.match(again.stdout, /config\.toml: MCP server loupe kept \(\[mcp_servers\.loupe\] is there\)/);
    assert.equal(await readFile(toml, "utf8"), written);
    const project = await setup(["codex", "--project"]);
    assert.equal(project.code, 2);
    assert.match(project.stderr, /Codex reads its hooks from CODEX_HOME only/);
  });

  it("opencode: Loupe's plugin (as `loupe plugin opencode` prints it) and the MCP server", async () => {
    const run = await setup(["opencode"]);
    assert.equal(run.code, 0, run.stderr);
    const plugin = await readFile(join(home, ".config", "opencode", "plugin", "loupe.js"), "utf8");
    const printed = await runLoupeCommand(["plugin", "opencode"], "", env);
    assert.equal(plugin, printed.stdout);
    const theirs = join(project, ".opencode", "plugin", "loupe.js");
    await mkdir(join(project, ".opencode", "plugin"), { recursive: true });
    await writeFile(theirs, "// someone else's loupe.js\n");
    assert.match((await setup(["opencode", "--project"])).stdout, /loupe\.js: Loupe's plugin not written \(the file there is not Loupe's\)/);
    assert.equal(await readFile(theirs, "utf8"), "// someone else's loupe.js\n");
    assert.match((await setup(["opencode", "--project", "--remove"])).stdout, /loupe\.js: Loupe's plugin kept \(not Loupe's\)/);
    assert.equal(await readFile(theirs, "utf8"), "// someone else's loupe.js\n");
    await rm(join(project, ".opencode"), { recursive: true });
    await rm(join(project, "opencode.json"), { force: true });
    const config = await readJson(join(home, ".config", "opencode", "opencode.json"));
    const server = (config["mcp"] as Record<string, { type: string; command: string[]; enabled: boolean }>)["loupe"];
    assert.equal(server?.type, "local");
    assert.equal(server?.enabled, true);
    assert.equal(server?.command[0], process.execPath);
    assert.deepEqual(server?.command.slice(-2), [`${repoRoot()}/services/loupe/src/main.ts`, "mcp"]);
    assert.match((await setup(["opencode"])).stdout, /Loupe's plugin unchanged/);
  });

  it("stops with nothing written when a file is not plain JSON, and --dry-run writes nothing", async () => {
    const broken = join(project, ".gemini", "settings.json");
    await mkdir(join(project, ".gemini"), { recursive: true });
    await writeFile(broken, '{ // comments\n "theme": "dark" }');
    const run = await setup(["gemini-cli", "--project"]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /settings\.json is not plain JSON .*nothing was written/);
    assert.equal(await readFile(broken, "utf8"), '{ // comments\n "theme": "dark" }');

    const dry = await setup(["opencode", "--project", "--dry-run"]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /loupe\.js: Loupe's plugin added \(dry run: not written\)/);
    assert.equal(await exists(join(project, ".opencode")), false);
    assert.equal(await exists(join(project, "opencode.json")), false);

    for (const args of [["cursor"], [], ["claude-code", "extra"], ["claude-code", "--global"]]) {
      const bad = await setup(args);
      assert.equal(bad.code, 2, args.join(" "));
      assert.match(bad.stderr, /usage: loupe setup claude-code\|codex\|gemini-cli\|opencode/);
    }
  });
});
