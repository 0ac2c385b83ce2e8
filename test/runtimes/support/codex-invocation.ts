import type { Invocation, InvocationContext, McpServerSpec, RuntimeRunOptions } from "./invocation.js";

/** The model Codex asks for unless told otherwise (one its bundled catalog knows, so no fallback-metadata warning). */
export const CODEX_DEFAULT_MODEL = "gpt-5.5";

const toml = (value: unknown): string => JSON.stringify(value);

function inlineTable(record: Record<string, string>): string {
  return `{ ${Object.entries(record)
    .map(([key, value]) => `${toml(key)} = ${toml(value)}`)
    .join(", ")} }`;
}

function mcpTable(name: string, spec: McpServerSpec): string {
  const lines = [`[mcp_servers.${toml(name)}]`];
  if ("url" in spec) {
    lines.push(`url = ${toml(spec.url)}`);
    if (spec.headers !== undefined) lines.push(`http_headers = ${inlineTable(spec.headers)}`);
  } else {
    lines.push(`command = ${toml(spec.command)}`, `args = ${toml(spec.args ?? [])}`);
    if (spec.env !== undefined) lines.push(`env = ${inlineTable(spec.env)}`);
  }
  return lines.join("\n");
}

/**
 * The `config.toml` that points Codex at the base URL through a custom Responses API provider
 * (`env_key` names the variable holding the key, sent as `authorization: Bearer …`), never asks
 * for approval, runs without sandbox, and turns off update checks, analytics, OTel export and
 * the plugin/app catalogs (without these it tried github.com, api.github.com, chatgpt.com and
 * ab.chatgpt.com).
 */
export function codexConfig(context: InvocationContext, options: RuntimeRunOptions): string {
  const flags = { plugins: false, apps: false, remote_plugin: false, plugin_discovery_prefetch: false, recommended_plugins: false, ...options.codexFeatures };
  const features = Object.entries(flags)
    .map(([name, on]) => `${name} = ${String(on)}`)
    .join("\n");
  const headers = options.headers === undefined ? "" : `http_headers = ${inlineTable(options.headers)}\n`;
  const base = `model = ${toml(context.model)}
model_provider = "loupe"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
trace_exporter = "none"
metrics_exporter = "none"

[features]
${features}

[model_providers.loupe]
name = "loupe"
base_url = ${toml(`${context.baseUrl}/v1`)}
env_key = "LOUPE_TEST_OPENAI_KEY"
wire_api = "responses"
${headers}`;
  const mcp = Object.entries(options.mcpServers ?? {}).map(([name, spec]) => mcpTable(name, spec));
  return [base, ...mcp, options.codexToml ?? ""].join("\n");
}

/** Codex headless: `codex exec --json` with approvals and sandbox off, `CODEX_HOME` inside the temporary HOME. */
export function codexInvocation(context: InvocationContext, options: RuntimeRunOptions): Invocation {
  return {
    args: ["exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", ...(options.args ?? []), "--", options.prompt],
    env: { CODEX_HOME: `${context.home}/.codex`, LOUPE_TEST_OPENAI_KEY: "sk-loupe-test" },
    homeFiles: { ".codex/config.toml": codexConfig(context, options) },
  };
}
