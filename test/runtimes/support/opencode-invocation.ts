import { mergeSettings, type Invocation, type InvocationContext, type RuntimeRunOptions } from "./invocation.js";

/** The model id OpenCode is given in its custom provider `loupe` unless told otherwise. */
export const OPENCODE_DEFAULT_MODEL = "scripted-model";

function mcp(options: RuntimeRunOptions): Record<string, unknown> {
  const servers = Object.entries(options.mcpServers ?? {}).map(([name, spec]): [string, unknown] => [
    name,
    "url" in spec
      ? { type: "remote", url: spec.url, headers: spec.headers ?? {}, enabled: true }
      : { type: "local", command: [spec.command, ...(spec.args ?? [])], environment: spec.env ?? {}, enabled: true },
  ]);
  return Object.fromEntries(servers);
}

/** The base URL as the AI SDK provider wants it: with `/v1` (the SDK adds `/chat/completions`, `/messages`, `/responses`). */
function providerOptions(context: InvocationContext, options: RuntimeRunOptions): Record<string, unknown> {
  return { baseURL: `${context.baseUrl}/v1`, apiKey: "sk-loupe-test", ...(options.headers === undefined ? {} : { headers: options.headers }) };
}

/**
 * OpenCode headless: `opencode run --format json --auto <prompt>` with a custom provider `loupe`
 * in `~/.config/opencode/opencode.json` whose AI SDK package (`@ai-sdk/openai-compatible` by
 * default, bundled in the binary) talks to the base URL; every permission `allow`, sharing and
 * auto-update off, and `OPENCODE_DISABLE_*` variables keeping it from fetching models.dev,
 * downloading language servers or reading `~/.claude`. Plugins go to `~/.config/opencode/plugin/`.
 */
export function opencodeInvocation(context: InvocationContext, options: RuntimeRunOptions): Invocation {
  const provider = {
    npm: options.opencodeProvider ?? "@ai-sdk/openai-compatible",
    name: "Loupe scripted vendor",
    options: providerOptions(context, options),
    models: { [context.model]: { name: context.model, tool_call: true, limit: { context: 200_000, output: 32_000 } } },
  };
  const base: Record<string, unknown> = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: `loupe/${context.model}`,
    small_model: `loupe/${context.model}`,
    provider: { loupe: provider },
    permission: { edit: "allow", bash: "allow", webfetch: "allow", external_directory: "allow" },
  };
  if (options.mcpServers !== undefined) base["mcp"] = mcp(options);
  const plugins = Object.entries(options.plugins ?? {}).map(([file, source]): [string, string] => [`.config/opencode/plugin/${file}`, source]);
  return {
    args: ["run", "--format", "json", "--auto", "--model", `loupe/${context.model}`, ...(options.args ?? []), "--", options.prompt],
    env: {
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
    },
    homeFiles: { ".config/opencode/opencode.json": JSON.stringify(mergeSettings(base, options.settings), null, 2), ...Object.fromEntries(plugins) },
  };
}
