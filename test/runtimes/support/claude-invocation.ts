import { join } from "node:path";
import { headerLines, mergeSettings, type Invocation, type InvocationContext, type RuntimeRunOptions } from "./invocation.js";

/** The model Claude Code asks for unless told otherwise. */
export const CLAUDE_DEFAULT_MODEL = "claude-sonnet-4-5";

function mcpConfig(options: RuntimeRunOptions): Record<string, unknown> {
  const servers = Object.entries(options.mcpServers ?? {}).map(([name, spec]): [string, unknown] => [
    name,
    "url" in spec
      ? { type: "http", url: spec.url, headers: spec.headers ?? {} }
      : { type: "stdio", command: spec.command, args: spec.args ?? [], env: spec.env ?? {} },
  ]);
  return { mcpServers: Object.fromEntries(servers) };
}

/** The tools a run allows without asking (besides every tool of each MCP server, `mcp__<name>`). */
export const CLAUDE_ALLOWED_TOOLS = ["Bash", "Read", "Grep", "Glob", "Edit", "Write"];

/**
 * Claude Code headless: `claude -p <prompt> --output-format json`, the usual tools approved with
 * `--allowedTools` (not `--permission-mode bypassPermissions`: that mode drops Grep and Glob from
 * the tools sent to the model, and as root it is refused unless `IS_SANDBOX=1`), user settings
 * (hooks) in `~/.claude/settings.json`, MCP servers from `--mcp-config` with `--strict-mcp-config`
 * (nothing else is loaded), custom headers through `ANTHROPIC_CUSTOM_HEADERS` (one `Name: value` a line).
 */
export function claudeInvocation(context: InvocationContext, options: RuntimeRunOptions): Invocation {
  const settings = mergeSettings({}, options.settings);
  const mcp = options.mcpServers === undefined ? [] : ["--mcp-config", join(context.home, ".claude-mcp.json"), "--strict-mcp-config"];
  const allowed = [...CLAUDE_ALLOWED_TOOLS, ...Object.keys(options.mcpServers ?? {}).map((name) => `mcp__${name}`)];
  const env: Record<string, string> = {
    ANTHROPIC_BASE_URL: context.baseUrl,
    ANTHROPIC_API_KEY: "sk-ant-loupe-test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
  };
  if (options.headers !== undefined) env["ANTHROPIC_CUSTOM_HEADERS"] = headerLines(options.headers, "\n");
  return {
    args: [
      "-p",
      "--output-format",
      "json",
      "--model",
      context.model,
      "--allowedTools",
      allowed.join(","),
      ...mcp,
      ...(options.args ?? []),
      "--",
      options.prompt,
    ],
    env,
    homeFiles: {
      ".claude/settings.json": JSON.stringify(settings, null, 2),
      ...(options.mcpServers === undefined ? {} : { ".claude-mcp.json": JSON.stringify(mcpConfig(options), null, 2) }),
    },
  };
}
