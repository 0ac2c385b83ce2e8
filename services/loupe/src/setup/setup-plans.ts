import { join } from "node:path";
import { commandLine, type LoupeInvocation } from "../hook/wrap-shell-command.js";
import { opencodePluginSource } from "../runtimes/opencode-plugin.js";
import { mergeHookGroup, setEntry, type Change, type HookGroup, type Settings } from "./merge-settings.js";

/** The runtimes `loupe setup` wires. */
export const SETUP_RUNTIMES = ["claude-code", "codex", "gemini-cli", "opencode"] as const;
export type SetupRuntime = (typeof SETUP_RUNTIMES)[number];

/** Where the runtimes keep their configuration: the user's home, the project folder, CODEX_HOME, XDG_CONFIG_HOME. */
export interface SetupPaths {
  home: string;
  cwd: string;
  codexHome: string;
  configHome: string;
}

/**
 * One change to one file, and the words that say what it did. A `file` or `toml-table` edit with
 * `remove` takes Loupe's file (one that starts as `content` does) or table out instead.
 */
export type Edit =
  | { kind: "json"; path: string; apply: (settings: Settings) => { settings: Settings; changes: string[] } }
  | { kind: "file"; path: string; content: string; what: string; remove: boolean }
  | { kind: "toml-table"; path: string; header: string; body: string; what: string; remove: boolean };

/** What setting up one runtime writes, and what is left for the user to do (said, not done). */
export interface SetupPlan {
  edits: Edit[];
  notes: string[];
}

const described = (what: string, change: Change): string => `${what} ${change}`;

/** A JSON edit made of steps, each a merge that reports its change. */
function jsonEdit(path: string, steps: ReadonlyArray<readonly [string, (settings: Settings) => { settings: Settings; change: Change }]>): Edit {
  return {
    kind: "json",
    path,
    apply: (settings) =>
      steps.reduce(
        (done, [what, step]) => {
          const next = step(done.settings);
          return { settings: next.settings, changes: [...done.changes, described(what, next.change)] };
        },
        { settings, changes: [] as string[] },
      ),
  };
}

function hookStep(runtimeEvent: string, loupeEvent: "pre-tool-use" | "post-tool-use", matcher: string, invocation: LoupeInvocation, remove: boolean) {
  const group: HookGroup = { matcher, hooks: [{ type: "command", command: commandLine(invocation, "hook", loupeEvent) }] };
  return [
    remove ? `${runtimeEvent} hook` : `${runtimeEvent} hook (${matcher})`,
    (settings: Settings) => mergeHookGroup(settings, runtimeEvent, loupeEvent, remove ? undefined : group),
  ] as const;
}

/** A TOML basic string (JSON's escapes are TOML's for these). */
const tomlString = (value: string): string => JSON.stringify(value);

/**
 * What `loupe setup <runtime>` writes (`scope` "user": the user's own configuration, read by every
 * project; "project": the project folder's), with this very `loupe` (`invocation`) in every command,
 * so the hooks work whatever the agent's PATH. Claude Code: its PreToolUse hook for Bash and Grep and
 * its PostToolUse hook for Read, Grep and MCP tools; the MCP server in `.mcp.json` for a project (for
 * the user, `claude mcp add` writes Claude Code's own state file: said, not done). Codex (user only):
 * its PostToolUse hook and `[mcp_servers.loupe]` in config.toml when there is none (Codex asks the
 * user to trust a new hook: said). Gemini CLI: its BeforeTool hook for shell commands and the MCP
 * server. OpenCode: Loupe's plugin and the MCP server. With `remove`, the same places lose what
 * Loupe put there, and only that (`loupe setup <runtime> --remove`). Pure.
 * @throws Error for codex with scope "project" (Codex reads hooks from CODEX_HOME only)
 */
export function setupPlan(runtime: SetupRuntime, scope: "user" | "project", paths: SetupPaths, invocation: LoupeInvocation, remove = false): SetupPlan {
  const [program = "node", ...rest] = invocation.argv;
  const mcp = { command: program, args: [...rest, "mcp"] };
  const hook = (runtimeEvent: string, loupeEvent: "pre-tool-use" | "post-tool-use", matcher: string) =>
    hookStep(runtimeEvent, loupeEvent, matcher, invocation, remove);
  const server = (path: readonly [string, ...string[]], value: unknown) =>
    ["MCP server loupe", (settings: Settings) => setEntry(settings, path, remove ? undefined : value)] as const;
  const root = scope === "user" ? paths.home : paths.cwd;
  switch (runtime) {
    case "claude-code": {
      const settings = jsonEdit(join(root, ".claude", "settings.json"), [
        hook("PreToolUse", "pre-tool-use", "Bash|Grep"),
        hook("PostToolUse", "post-tool-use", "Read|Grep|mcp__.*"),
      ]);
      if (scope === "project") return { edits: [settings, jsonEdit(join(paths.cwd, ".mcp.json"), [server(["mcpServers", "loupe"], mcp)])], notes: [] };
      const note = remove
        ? "for the MCP server run: claude mcp remove --scope user loupe"
        : `for the MCP server (read_result, search_result, …) run: claude mcp add --scope user loupe -- ${commandLine(invocation, "mcp")}`;
      return { edits: [settings], notes: [note] };
    }
    case "codex": {
      if (scope === "project") throw new Error("Codex reads its hooks from CODEX_HOME only: run loupe setup codex without --project");
      const body = `command = ${tomlString(program)}\nargs = [${mcp.args.map(tomlString).join(", ")}]\n`;
      return {
        edits: [
          jsonEdit(join(paths.codexHome, "hooks.json"), [hook("PostToolUse", "post-tool-use", "*")]),
          { kind: "toml-table", path: join(paths.codexHome, "config.toml"), header: "[mcp_servers.loupe]", body, what: "MCP server loupe", remove },
        ],
        notes: remove ? [] : ["Codex runs a new hook only once you have reviewed and trusted it: open codex and answer its prompt (or /hooks)"],
      };
    }
    case "gemini-cli":
      return {
        edits: [
          jsonEdit(join(root, ".gemini", "settings.json"), [
            hook("BeforeTool", "pre-tool-use", "run_shell_command"),
            server(["mcpServers", "loupe"], { ...mcp, trust: true }),
          ]),
        ],
        notes: [],
      };
    case "opencode": {
      const folder = scope === "user" ? join(paths.configHome, "opencode") : join(paths.cwd, ".opencode");
      const config = scope === "user" ? join(folder, "opencode.json") : join(paths.cwd, "opencode.json");
      return {
        edits: [
          { kind: "file", path: join(folder, "plugin", "loupe.js"), content: opencodePluginSource(invocation), what: "Loupe's plugin", remove },
          jsonEdit(config, [server(["mcp", "loupe"], { type: "local", command: [program, ...mcp.args], enabled: true })]),
        ],
        notes: [],
      };
    }
  }
}
