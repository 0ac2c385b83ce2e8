import { fileURLToPath } from "node:url";
import type { McpServerSpec } from "./invocation.js";

const TSX_LOADER = import.meta.resolve("tsx");
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** The probe MCP server (`mcp-stdio-server.ts`, one tool `read_result`) as a stdio server spec; calls are logged to `log`. */
export function probeMcpServer(log?: string): McpServerSpec {
  return { command: process.execPath, args: ["--import", TSX_LOADER, here("./mcp-stdio-server.ts"), ...(log === undefined ? [] : [log])] };
}

/**
 * A shell command line running `hook-recorder.ts`: it logs each payload to `log` and answers from
 * `answersFile` (see that file). Extra words are passed on and logged as `argv` (to tell hooks apart).
 */
export function hookCommand(log: string, answersFile: string, ...extra: string[]): string {
  return [process.execPath, "--import", TSX_LOADER, here("./hook-recorder.ts"), log, answersFile, ...extra].map(shellQuote).join(" ");
}

/** The lines of a JSON-lines log written by the hook recorder or the MCP server (none when it does not exist). */
export async function readJsonLines(path: string): Promise<Array<Record<string, unknown>>> {
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(path, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
