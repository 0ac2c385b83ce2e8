import { createGrpcClient, DEFAULT_MAX_RESULT_BYTES } from "@loupe/grpc";
import { ProjectionService } from "@loupe/proto";
import { extractToolText, responseIsError } from "./extract-tool-text.js";

const DEFAULT_ADDRESS = "127.0.0.1:50051";
const DEFAULT_SOURCE = "claude-code";
/** Default deadline of the Project call made by the hook: 2,000 ms (LOUPE_HOOK_TIMEOUT_MS). */
export const DEFAULT_HOOK_TIMEOUT_MS = 2000;

/** Where the hook writes; process.stdout/stderr in the command, buffers in tests. */
export interface HookIo {
  readonly stdin: AsyncIterable<Buffer | string>;
  writeOut(text: string): void;
  writeErr(text: string): void;
}

function warn(io: HookIo, message: string): void {
  io.writeErr(`loupe hook: ${message}; passing the original output through\n`);
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** Reads stdin fully; `undefined` once more than `limitBytes` arrived (the rest is not read). */
async function readLimited(stdin: AsyncIterable<Buffer | string>, limitBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    total += buffer.byteLength;
    if (total > limitBytes) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `loupe hook post-tool-use`: reads one PostToolUse payload (Claude Code,
 * Agent SDK or Codex) from stdin, projects the tool's text through a running
 * Loupe (LOUPE_ADDR, default 127.0.0.1:50051) and, when the view differs,
 * prints `{ hookSpecificOutput: { hookEventName: "PostToolUse",
 * updatedToolOutput } }` in the tool's own response shape (MCP tools also get
 * `updatedMCPToolOutput`, the field older Claude Code versions read).
 *
 * Never blocks the agent: always resolves 0 and never throws. Prints nothing
 * (the agent keeps its original output) when the view is unchanged, and also
 * when Loupe is down, slower than LOUPE_HOOK_TIMEOUT_MS (default 2,000 ms), the
 * payload is over the size cap (2 × LOUPE_MAX_RESULT_BYTES for the JSON
 * payload, LOUPE_MAX_RESULT_BYTES for the text), or the response shape is
 * unknown — those cases add one warning line on stderr.
 */
export async function postToolUseHook(env: NodeJS.ProcessEnv, io: HookIo): Promise<number> {
  try {
    const maxResultBytes = positiveInt(env, "LOUPE_MAX_RESULT_BYTES", DEFAULT_MAX_RESULT_BYTES);
    const raw = await readLimited(io.stdin, maxResultBytes * 2);
    if (raw === undefined) {
      warn(io, `payload larger than the cap [limit_bytes=${String(maxResultBytes * 2)}]`);
      return 0;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw);
    } catch (error) {
      warn(io, `stdin is not JSON [error=${errorMessage(error)}]`);
      return 0;
    }
    if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
      warn(io, "stdin is not a PostToolUse payload object");
      return 0;
    }
    const input = payload as Record<string, unknown>;
    const toolName = typeof input["tool_name"] === "string" ? input["tool_name"] : "";
    if (!("tool_response" in input)) {
      warn(io, `payload has no tool_response [tool=${toolName}]`);
      return 0;
    }
    const toolResponse = input["tool_response"];
    const text = extractToolText(toolName, toolResponse);
    if (text === undefined) {
      warn(io, `unknown tool_response shape [tool=${toolName}]`);
      return 0;
    }
    const original = text.parts.join("");
    if (Buffer.byteLength(original) > maxResultBytes) {
      warn(io, `tool output larger than LOUPE_MAX_RESULT_BYTES [limit_bytes=${String(maxResultBytes)}]`);
      return 0;
    }

    const timeoutMs = positiveInt(env, "LOUPE_HOOK_TIMEOUT_MS", DEFAULT_HOOK_TIMEOUT_MS);
    const address = env["LOUPE_ADDR"] ?? DEFAULT_ADDRESS;
    const client = createGrpcClient(ProjectionService, address, { maxResultBytes });
    let view: string;
    try {
      const response = await client.project(
        {
          sessionId: typeof input["session_id"] === "string" ? input["session_id"] : "",
          source: env["LOUPE_SOURCE"] ?? DEFAULT_SOURCE,
          result: {
            toolUseId: typeof input["tool_use_id"] === "string" ? input["tool_use_id"] : "",
            toolName,
            argsJson: input["tool_input"] === undefined ? "" : JSON.stringify(input["tool_input"]),
            isError: responseIsError(toolResponse),
            parts: text.parts.map((part) => ({ content: { case: "text" as const, value: part } })),
          },
        },
        { timeoutMs },
      );
      view = response.parts.map((part) => (part.content.case === "text" ? part.content.value : "")).join("");
    } catch (error) {
      warn(io, `projection failed [addr=${address}, timeout_ms=${String(timeoutMs)}, error=${errorMessage(error)}]`);
      return 0;
    } finally {
      client.close();
    }
    if (view === original || view === "") return 0;

    const updated = text.rebuild(view);
    const hookSpecificOutput: Record<string, unknown> = { hookEventName: "PostToolUse", updatedToolOutput: updated };
    if (toolName.startsWith("mcp__")) hookSpecificOutput["updatedMCPToolOutput"] = updated;
    io.writeOut(JSON.stringify({ hookSpecificOutput }) + "\n");
    return 0;
  } catch (error) {
    warn(io, `unexpected error [error=${errorMessage(error)}]`);
    return 0;
  }
}
