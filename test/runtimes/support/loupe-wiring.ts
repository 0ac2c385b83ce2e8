import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EmbeddedLoupe } from "../../support/embedded-loupe.js";
import { LOUPE_FROM_SOURCE, runLoupeCommand } from "../../support/run-loupe-command.js";
import type { McpServerSpec } from "./invocation.js";

// Resolved here: a runtime starts hooks and MCP servers in its own working folder, where `tsx` is not found by name.
const TSX_LOADER = import.meta.resolve("tsx");

/** The `loupe` command from source, runnable from any folder: node, the source condition, tsx, the entry point. */
export function loupeArgv(): string[] {
  return [...LOUPE_FROM_SOURCE];
}

/** The gRPC address of an embedded Loupe, as LOUPE_ADDR. */
export const loupeAddr = (loupe: EmbeddedLoupe): string => `127.0.0.1:${String(loupe.grpcPort)}`;

/**
 * What a runtime's environment needs for Loupe's hooks, plugin and `loupe exec`: LOUPE_ADDR and LOUPE_HTTP_URL, and
 * deadlines longer than the defaults (2 s for a hook's Project, 5 s for exec's), so that a busy
 * test machine passes the original through no more often than a developer's would.
 */
export function loupeEnv(loupe: EmbeddedLoupe): Record<string, string> {
  // The hooks and `loupe exec` call Project over the HTTP port (as they do by default); `loupe mcp` over gRPC.
  return {
    LOUPE_ADDR: loupeAddr(loupe),
    LOUPE_HTTP_URL: `http://127.0.0.1:${String(loupe.httpPort)}`,
    LOUPE_HOOK_TIMEOUT_MS: "15000",
    LOUPE_EXEC_TIMEOUT_MS: "15000",
  };
}

/** Loupe's HTTP base (gateway port): the vendor proxy, REST and `/mcp`. */
export const loupeHttp = (loupe: EmbeddedLoupe): string => `http://127.0.0.1:${String(loupe.httpPort)}`;

/** `loupe mcp` on stdio, from source, talking to `loupe`. */
export function loupeStdioMcp(loupe: EmbeddedLoupe): McpServerSpec {
  const [command = "", ...args] = loupeArgv();
  return { command, args: [...args, "mcp"], env: { LOUPE_ADDR: loupeAddr(loupe) } };
}

/** The gateway's streamable HTTP MCP endpoint. */
export function loupeHttpMcp(loupe: EmbeddedLoupe): McpServerSpec {
  return { url: `${loupeHttp(loupe)}/mcp` };
}

/** The test MCP server `tracker` (tool `search`, a large JSON answer) on stdio. */
export function trackerMcp(): McpServerSpec {
  return { command: process.execPath, args: ["--import", TSX_LOADER, fileURLToPath(new URL("./tracker-mcp-server.ts", import.meta.url))] };
}

/** An app's rule as the REST API shows it. */
export type SourceLimit = Record<string, unknown>;

/** `PUT /api/teams/local/source-limits?source=APP` with `rule`; returns the stored rule. */
export async function putSourceLimit(loupe: EmbeddedLoupe, source: string, rule: Record<string, unknown>): Promise<SourceLimit> {
  const response = await fetch(`${loupeHttp(loupe)}/api/teams/local/source-limits?source=${encodeURIComponent(source)}`, {
    method: "PUT",
    body: JSON.stringify(rule),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`PUT source-limits ${source}: ${String(response.status)} ${text}`);
  return JSON.parse(text) as SourceLimit;
}

/** `GET /api/teams/local/source-limits?source=APP`. */
export async function getSourceLimit(loupe: EmbeddedLoupe, source: string): Promise<SourceLimit> {
  const response = await fetch(`${loupeHttp(loupe)}/api/teams/local/source-limits?source=${encodeURIComponent(source)}`);
  const text = await response.text();
  if (!response.ok) throw new Error(`GET source-limits ${source}: ${String(response.status)} ${text}`);
  return JSON.parse(text) as SourceLimit;
}

/** The README's rule for an app behind the proxy: cut results over 8,000 characters to 3,000 + 3,000. */
export const README_RULE = { keep_limit_chars: 8000, keep_head_chars: 3000, keep_tail_chars: 3000 } as const;

/** The environment that lets Loupe's proxy forward every vendor's routes to `vendorUrl`. */
export function proxyUpstreams(vendorUrl: string): Record<string, string> {
  return { LOUPE_ANTHROPIC_BASE_URL: vendorUrl, LOUPE_OPENAI_BASE_URL: vendorUrl, LOUPE_GEMINI_BASE_URL: vendorUrl };
}

/**
 * The settings file `loupe setup <runtime>` writes for a user whose settings were empty (run from
 * source in a temporary HOME), parsed: the runtime suites run the real runtime with what the
 * command writes, so the command is tested end to end.
 */
export async function setupSettings(runtime: "claude-code" | "codex" | "gemini-cli", file: string): Promise<Record<string, unknown>> {
  const home = await mkdtemp(join(tmpdir(), "loupe-setup-home-"));
  try {
    const env = { HOME: home, CODEX_HOME: join(home, ".codex"), XDG_CONFIG_HOME: join(home, ".config") };
    const run = await runLoupeCommand(["setup", runtime], "", env);
    if (run.code !== 0) throw new Error(`loupe setup ${runtime} failed: ${run.stderr}`);
    return JSON.parse(await readFile(join(home, file), "utf8")) as Record<string, unknown>;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
