import { headerLines, mergeSettings, type Invocation, type InvocationContext, type RuntimeRunOptions } from "./invocation.js";

/** The model Gemini CLI asks for unless told otherwise. */
export const GEMINI_DEFAULT_MODEL = "gemini-2.5-pro";

function mcpServers(options: RuntimeRunOptions): Record<string, unknown> {
  const servers = Object.entries(options.mcpServers ?? {}).map(([name, spec]): [string, unknown] => [
    name,
    // trust: true skips the per-tool confirmation (yolo mode would too).
    "url" in spec
      ? { httpUrl: spec.url, headers: spec.headers ?? {}, trust: true }
      : { command: spec.command, args: spec.args ?? [], env: spec.env ?? {}, trust: true },
  ]);
  return Object.fromEntries(servers);
}

/**
 * Gemini CLI headless: `gemini -p <prompt> --yolo --output-format json` with an API key
 * (`GEMINI_API_KEY`, sent as `x-goog-api-key`), the base URL in `GOOGLE_GEMINI_BASE_URL`,
 * custom headers in `GEMINI_CLI_CUSTOM_HEADERS` (`Name: value` pairs separated by commas), and
 * `~/.gemini/settings.json` turning off auto-update, usage statistics, telemetry and folder trust.
 */
export function geminiInvocation(context: InvocationContext, options: RuntimeRunOptions): Invocation {
  const base: Record<string, unknown> = {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
  };
  if (options.mcpServers !== undefined) base["mcpServers"] = mcpServers(options);
  const env: Record<string, string> = { GEMINI_API_KEY: "loupe-test-gemini-key", GOOGLE_GEMINI_BASE_URL: context.baseUrl };
  if (options.headers !== undefined) env["GEMINI_CLI_CUSTOM_HEADERS"] = headerLines(options.headers, ", ");
  return {
    args: ["--output-format", "json", "--yolo", "-m", context.model, ...(options.args ?? []), "-p", options.prompt],
    env,
    homeFiles: { ".gemini/settings.json": JSON.stringify(mergeSettings(base, options.settings), null, 2) },
  };
}
