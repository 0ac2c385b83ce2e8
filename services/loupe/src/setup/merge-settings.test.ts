import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isLoupeHook, mergeHookGroup, setEntry, type HookGroup } from "./merge-settings.js";

const LOUPE_PRE = "'/usr/bin/node' '/usr/lib/node_modules/loupe-context/dist/main.js' 'hook' 'pre-tool-use'";
const group = (matcher: string, command = LOUPE_PRE): HookGroup => ({ matcher, hooks: [{ type: "command", command }] });
const formatter = { matcher: "Edit", hooks: [{ type: "command", command: "prettier --write" }] };

describe("isLoupeHook()", () => {
  it("knows Loupe's hook by its event however Loupe is invoked", () => {
    for (const command of [LOUPE_PRE, "loupe hook pre-tool-use", "npx loupe-context hook pre-tool-use --runtime claude-code"])
      assert.equal(isLoupeHook({ type: "command", command }, "pre-tool-use"), true, command);
    for (const command of ["loupe hook post-tool-use", "my-hook pre-tool-use", "prettier --write"])
      assert.equal(isLoupeHook({ type: "command", command }, "pre-tool-use"), false, command);
    assert.equal(isLoupeHook("loupe hook pre-tool-use", "pre-tool-use"), false);
  });
});

describe("mergeHookGroup()", () => {
  it("adds Loupe's group after the runtime's other hooks, keeping every other setting", () => {
    const settings = { model: "opus", hooks: { PreToolUse: [formatter], Stop: [formatter] } };
    const merged = mergeHookGroup(settings, "PreToolUse", "pre-tool-use", group("Bash|Grep"));
    assert.equal(merged.change, "added");
    assert.deepEqual(merged.settings, { model: "opus", hooks: { PreToolUse: [formatter, group("Bash|Grep")], Stop: [formatter] } });
    assert.deepEqual(settings.hooks.PreToolUse, [formatter], "the input is not modified");
  });

  it("replaces an older Loupe group in place (a matcher of Bash only becomes Bash|Grep), and a second merge changes nothing", () => {
    const settings = { hooks: { PreToolUse: [group("Bash", "loupe hook pre-tool-use"), formatter] } };
    const updated = mergeHookGroup(settings, "PreToolUse", "pre-tool-use", group("Bash|Grep"));
    assert.equal(updated.change, "updated");
    assert.deepEqual(updated.settings["hooks"], { PreToolUse: [group("Bash|Grep"), formatter] });
    const again = mergeHookGroup(updated.settings, "PreToolUse", "pre-tool-use", group("Bash|Grep"));
    assert.equal(again.change, "unchanged");
    assert.deepEqual(again.settings, updated.settings);
  });

  it("takes Loupe's hook out of a group it shares with others, and drops a second Loupe group", () => {
    const shared = {
      matcher: "*",
      hooks: [
        { type: "command", command: "audit.sh" },
        { type: "command", command: "loupe hook pre-tool-use" },
      ],
    };
    const settings = { hooks: { PreToolUse: [shared, group("Bash", "loupe hook pre-tool-use"), group("Read", "loupe hook post-tool-use")] } };
    const merged = mergeHookGroup(settings, "PreToolUse", "pre-tool-use", group("Bash|Grep"));
    assert.deepEqual(merged.settings["hooks"], {
      PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "audit.sh" }] }, group("Bash|Grep"), group("Read", "loupe hook post-tool-use")],
    });
    assert.equal(mergeHookGroup(merged.settings, "PreToolUse", "pre-tool-use", group("Bash|Grep")).change, "unchanged");
  });

  it("starts the hooks when there are none, and leaves malformed entries of others alone", () => {
    assert.deepEqual(mergeHookGroup({}, "BeforeTool", "pre-tool-use", group("run_shell_command")).settings, {
      hooks: { BeforeTool: [group("run_shell_command")] },
    });
    const odd = { hooks: { PreToolUse: ["not a group", { matcher: "x" }] } };
    assert.deepEqual(mergeHookGroup(odd, "PreToolUse", "pre-tool-use", group("Bash")).settings["hooks"], {
      PreToolUse: ["not a group", { matcher: "x" }, group("Bash")],
    });
  });
});

describe("mergeHookGroup() without a group (loupe setup --remove)", () => {
  it("takes Loupe's hooks out and nothing else, dropping what it leaves empty", () => {
    const shared = {
      matcher: "*",
      hooks: [
        { type: "command", command: "audit.sh" },
        { type: "command", command: "loupe hook pre-tool-use" },
      ],
    };
    const settings = {
      model: "opus",
      hooks: { PreToolUse: [shared, group("Bash|Grep"), formatter], PostToolUse: [group("Read", "loupe hook post-tool-use")] },
    };
    const removed = mergeHookGroup(settings, "PreToolUse", "pre-tool-use", undefined);
    assert.equal(removed.change, "removed");
    assert.deepEqual(removed.settings, {
      model: "opus",
      hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "audit.sh" }] }, formatter], PostToolUse: settings.hooks.PostToolUse },
    });
    const post = mergeHookGroup(removed.settings, "PostToolUse", "post-tool-use", undefined);
    assert.deepEqual(post.settings["hooks"], { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "audit.sh" }] }, formatter] });
    assert.deepEqual(mergeHookGroup({ hooks: { PreToolUse: [group("Bash")] } }, "PreToolUse", "pre-tool-use", undefined).settings, {});
    const absent = mergeHookGroup({ hooks: {} }, "PreToolUse", "pre-tool-use", undefined);
    assert.deepEqual(absent, { settings: { hooks: {} }, change: "absent" });
  });
});

describe("setEntry()", () => {
  it("sets a nested entry, making the objects on the way, and says whether it added, changed or kept it", () => {
    const server = { command: "node", args: ["main.js", "mcp"] };
    const added = setEntry({ theme: "dark" }, ["mcpServers", "loupe"], server);
    assert.equal(added.change, "added");
    assert.deepEqual(added.settings, { theme: "dark", mcpServers: { loupe: server } });
    assert.equal(setEntry(added.settings, ["mcpServers", "loupe"], server).change, "unchanged");
    const moved = setEntry({ mcpServers: { loupe: { command: "old" }, other: { command: "x" } } }, ["mcpServers", "loupe"], server);
    assert.equal(moved.change, "updated");
    assert.deepEqual(moved.settings, { mcpServers: { loupe: server, other: { command: "x" } } });
  });

  it("removes an entry when given no value, dropping an object it leaves empty", () => {
    assert.deepEqual(setEntry({ mcpServers: { loupe: {}, other: {} } }, ["mcpServers", "loupe"], undefined), {
      settings: { mcpServers: { other: {} } },
      change: "removed",
    });
    assert.deepEqual(setEntry({ theme: "dark", mcpServers: { loupe: {} } }, ["mcpServers", "loupe"], undefined), {
      settings: { theme: "dark" },
      change: "removed",
    });
    assert.deepEqual(setEntry({ theme: "dark" }, ["mcpServers", "loupe"], undefined), { settings: { theme: "dark" }, change: "absent" });
  });
});
