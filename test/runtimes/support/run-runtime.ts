import { join } from "node:path";
import type { RecordedRequest, ScriptedVendor } from "@loupe/testing";
import { CLAUDE_DEFAULT_MODEL, claudeInvocation } from "./claude-invocation.js";
import { CODEX_DEFAULT_MODEL, codexInvocation } from "./codex-invocation.js";
import { startDenyProxy } from "./deny-proxy.js";
import { GEMINI_DEFAULT_MODEL, geminiInvocation } from "./gemini-invocation.js";
import type { Invocation, InvocationContext, RuntimeRunOptions } from "./invocation.js";
import { OPENCODE_DEFAULT_MODEL, opencodeInvocation } from "./opencode-invocation.js";
import { runProcess, type ProcessRun } from "./run-process.js";
import { locateRuntime, type RuntimeName } from "./runtimes.js";
import { createSandbox } from "./sandbox.js";

export type { RuntimeRunOptions, McpServerSpec } from "./invocation.js";

/** What one headless runtime run did. */
export interface RuntimeRun extends ProcessRun {
  runtime: RuntimeName;
  /** The command line (binary, then arguments). */
  command: string[];
  home: string;
  work: string;
  /** The requests the vendor received during this run, in order. */
  requests: RecordedRequest[];
  /** What the runtime tried to reach besides 127.0.0.1 (all refused): `CONNECT host:port` or `METHOD url`. */
  outbound: string[];
}

const BUILDERS: Record<RuntimeName, { model: string; build: (context: InvocationContext, options: RuntimeRunOptions) => Invocation }> = {
  claude: { model: CLAUDE_DEFAULT_MODEL, build: claudeInvocation },
  codex: { model: CODEX_DEFAULT_MODEL, build: codexInvocation },
  gemini: { model: GEMINI_DEFAULT_MODEL, build: geminiInvocation },
  opencode: { model: OPENCODE_DEFAULT_MODEL, build: opencodeInvocation },
};

/** The environment every run starts from: nothing inherited but PATH, everything under the temporary HOME, proxies that refuse. */
function baseEnv(home: string, proxy: string): Record<string, string> {
  const loopback = "127.0.0.1,localhost,::1";
  return {
    PATH: process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    USER: "loupe",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    SHELL: "/bin/bash",
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    HTTPS_PROXY: proxy,
    HTTP_PROXY: proxy,
    https_proxy: proxy,
    http_proxy: proxy,
    NO_PROXY: loopback,
    no_proxy: loopback,
  };
}

/**
 * Runs one agent runtime headless on one prompt in a fresh temporary HOME and working folder,
 * pointed at the scripted vendor (or `options.baseUrl`), every tool call approved, telemetry,
 * updates and error reports off, and any traffic beyond 127.0.0.1 refused by a local proxy.
 * Asynchronous throughout, so the in-process vendor keeps answering. Bounded by
 * `options.timeoutMs` (the process group is killed). Throws when the runtime is not installed:
 * call `locateRuntime` first to skip instead.
 */
export async function runRuntime(runtime: RuntimeName, vendor: ScriptedVendor, options: RuntimeRunOptions): Promise<RuntimeRun> {
  const location = await locateRuntime(runtime);
  if ("missing" in location) throw new Error(`${runtime} is not installed: ${location.missing}`);
  const sandbox = await createSandbox(runtime);
  const proxy = await startDenyProxy();
  const first = vendor.requests.length;
  try {
    const context: InvocationContext = {
      home: sandbox.home,
      work: sandbox.work,
      baseUrl: options.baseUrl ?? vendor.url,
      model: options.model ?? BUILDERS[runtime].model,
    };
    const invocation = BUILDERS[runtime].build(context, options);
    await sandbox.write(sandbox.home, { ...invocation.homeFiles, ...(options.homeFiles ?? {}) });
    await sandbox.write(sandbox.work, options.workFiles ?? {});
    await options.onStart?.({ home: sandbox.home, work: sandbox.work });
    const env = { ...baseEnv(sandbox.home, proxy.url), ...invocation.env, ...(options.env ?? {}) };
    const run = await runProcess(location.path, invocation.args, { cwd: sandbox.work, env, timeoutMs: options.timeoutMs ?? 120_000 });
    return {
      ...run,
      runtime,
      command: [location.path, ...invocation.args],
      home: sandbox.home,
      work: sandbox.work,
      requests: vendor.requests.slice(first),
      outbound: [...proxy.attempts],
    };
  } finally {
    await proxy.close();
    if (options.keepSandbox !== true) await sandbox.dispose();
  }
}

/** `runRuntime("claude", …)`: Claude Code on the Anthropic Messages API. */
export const runClaudeCode = (vendor: ScriptedVendor, options: RuntimeRunOptions): Promise<RuntimeRun> => runRuntime("claude", vendor, options);
/** `runRuntime("codex", …)`: Codex on the OpenAI Responses API. */
export const runCodex = (vendor: ScriptedVendor, options: RuntimeRunOptions): Promise<RuntimeRun> => runRuntime("codex", vendor, options);
/** `runRuntime("gemini", …)`: Gemini CLI on the Gemini API. */
export const runGeminiCli = (vendor: ScriptedVendor, options: RuntimeRunOptions): Promise<RuntimeRun> => runRuntime("gemini", vendor, options);
/** `runRuntime("opencode", …)`: OpenCode through a custom AI SDK provider (Chat Completions by default). */
export const runOpenCode = (vendor: ScriptedVendor, options: RuntimeRunOptions): Promise<RuntimeRun> => runRuntime("opencode", vendor, options);
