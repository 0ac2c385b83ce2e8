/** An MCP server a runtime is configured with: a stdio command, or a streamable HTTP endpoint. */
export type McpServerSpec = { command: string; args?: string[]; env?: Record<string, string> } | { url: string; headers?: Record<string, string> };

/** Options of a runtime run (see `runRuntime`). Runtime-specific fields are ignored by the others. */
export interface RuntimeRunOptions {
  /** The one prompt of the run. */
  prompt: string;
  /** The model's base URL; default the scripted vendor's (give Loupe's vendor proxy here to put it in between). */
  baseUrl?: string;
  /** The model name the runtime asks for (a default per runtime that the runtime knows). */
  model?: string;
  /** Headers added to every model request, through the runtime's own custom-header setting. */
  headers?: Record<string, string>;
  /** MCP servers by name. */
  mcpServers?: Record<string, McpServerSpec>;
  /** Merged into the runtime's settings file: Claude Code `~/.claude/settings.json` (hooks go here), Gemini CLI `~/.gemini/settings.json` (hooks too), OpenCode `opencode.json`. */
  settings?: Record<string, unknown>;
  /** Codex: TOML appended to `$CODEX_HOME/config.toml` (after the harness's own tables). */
  codexToml?: string;
  /** Codex: feature flags set in `[features]` (over the harness's, which turn off plugins and apps). */
  codexFeatures?: Record<string, boolean>;
  /** OpenCode: plugin files by file name, written to `~/.config/opencode/plugin/`. */
  plugins?: Record<string, string>;
  /** OpenCode: which AI SDK provider package serves the base URL (default `@ai-sdk/openai-compatible`, i.e. Chat Completions). */
  opencodeProvider?: "@ai-sdk/openai-compatible" | "@ai-sdk/anthropic" | "@ai-sdk/openai";
  /** Files written under HOME before the run (paths relative to HOME). */
  homeFiles?: Record<string, string>;
  /** Files written in the working folder before the run. */
  workFiles?: Record<string, string>;
  /** Extra environment variables (over the harness's). */
  env?: Record<string, string>;
  /** Extra command-line arguments, placed before the prompt. */
  args?: string[];
  /** Milliseconds before the run is killed (default 120,000). */
  timeoutMs?: number;
  /** Called with the run's folders after its files are written and before the runtime starts (to set a script that names absolute paths). */
  onStart?: (folders: { home: string; work: string }) => void | Promise<void>;
  /** Keep the temporary HOME and working folder (default: removed after the run). */
  keepSandbox?: boolean;
}

/** What a runtime's config builder is given. */
export interface InvocationContext {
  home: string;
  work: string;
  baseUrl: string;
  model: string;
}

/** How to start one runtime: its arguments, environment and files to write first. */
export interface Invocation {
  args: string[];
  env: Record<string, string>;
  /** Paths relative to HOME. */
  homeFiles: Record<string, string>;
}

/** A JSON object's fields merged into another, recursively for nested plain objects (arrays are replaced). */
export function mergeSettings(base: Record<string, unknown>, extra: Record<string, unknown> | undefined): Record<string, unknown> {
  if (extra === undefined) return base;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    const bothObjects = [current, value].every((item) => typeof item === "object" && item !== null && !Array.isArray(item));
    merged[key] = bothObjects ? mergeSettings(current as Record<string, unknown>, value as Record<string, unknown>) : value;
  }
  return merged;
}

/** `Name: value` lines. */
export function headerLines(headers: Record<string, string> | undefined, separator: string): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join(separator);
}
