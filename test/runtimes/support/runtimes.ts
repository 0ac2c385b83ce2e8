import { homedir } from "node:os";
import { join } from "node:path";
import { runProcess } from "./run-process.js";

/** The agent runtimes the harness drives. */
export type RuntimeName = "claude" | "codex" | "gemini" | "opencode";

/** The pinned npm package of each runtime and the binary it installs. */
export const RUNTIME_PACKAGES: Readonly<Record<RuntimeName, { spec: string; bin: string }>> = {
  claude: { spec: "@anthropic-ai/claude-code@2.1.328", bin: "claude" },
  codex: { spec: "@openai/codex@0.169.0", bin: "codex" },
  gemini: { spec: "@google/gemini-cli@0.61.0", bin: "gemini" },
  opencode: { spec: "opencode-ai@1.18.33", bin: "opencode" },
};

const REPO_ROOT = new URL("../../../", import.meta.url).pathname;

/** Where scripts/install-runtimes.sh puts the runtimes (the same rule as the script). */
export function runtimesCache(env: NodeJS.ProcessEnv = process.env): string {
  if (env["LOUPE_RUNTIMES_CACHE"]) return env["LOUPE_RUNTIMES_CACHE"];
  return join(env["XDG_CACHE_HOME"] || join(homedir(), ".cache"), "loupe-runtimes");
}

/** The binary of an installed runtime, or why there is none. */
export type RuntimeLocation = { path: string } | { missing: string };

let installed: Promise<string> | undefined;

/** Runs scripts/install-runtimes.sh once per process (seconds when everything is cached) and returns its output. */
function install(): Promise<string> {
  installed ??= runProcess("bash", ["scripts/install-runtimes.sh"], {
    cwd: REPO_ROOT,
    env: Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    timeoutMs: 540_000,
  }).then((run) => `${run.stdout}${run.stderr}${run.timedOut ? "\ninstall-runtimes: timed out" : ""}`);
  return installed;
}

/**
 * Installs the runtime if needed and returns its binary's path, or the reason it cannot be had
 * (the install script's line for it), for a test to skip with.
 */
export async function locateRuntime(name: RuntimeName): Promise<RuntimeLocation> {
  const { spec, bin } = RUNTIME_PACKAGES[name];
  const output = await install();
  const line = output.split("\n").find((text) => text.startsWith(`install-runtimes: ${spec}: `));
  if (line === undefined) return { missing: `${spec}: the install script said nothing about it:\n${output}` };
  if (line.includes(": not installed: ")) return { missing: line.slice("install-runtimes: ".length) };
  return { path: join(runtimesCache(), spec, "node_modules", ".bin", bin) };
}
