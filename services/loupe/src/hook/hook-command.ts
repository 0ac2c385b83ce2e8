import { parseFlags } from "../parse-flags.js";
import type { HookIo } from "./hook-io.js";

const USAGE = "usage: loupe hook post-tool-use|pre-tool-use [--runtime claude-code|codex|gemini-cli|opencode] < payload.json";

/**
 * `loupe hook <event>`: runs an agent hook — `post-tool-use` (PostToolUse and
 * PostToolUseFailure payloads) or `pre-tool-use` (PreToolUse). Hooks always
 * return 0. An unknown event prints the usage on stderr and returns 1 (a
 * non-blocking error for the runtimes, unlike 2, which blocks).
 */
export async function hookCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [event, ...rest] = args;
  let runtime: string | undefined;
  try {
    runtime = parseFlags(rest, ["runtime"], []).values.runtime;
  } catch (error) {
    // Exit code 2 would block the agent: a bad hook command line is reported, not enforced.
    process.stderr.write(`loupe hook: ${error instanceof Error ? error.message : String(error)}; ${USAGE}\n`);
    return 1;
  }
  const io: HookIo = {
    stdin: process.stdin,
    writeOut: (text) => void process.stdout.write(text),
    writeErr: (text) => void process.stderr.write(text),
  };
  // A runtime starts the hook once per tool call: each event loads only its own code (the pre-tool-use
  // hook never calls Project, so it does not load the gRPC client, about 0.3 s of every call's start).
  if (event === "post-tool-use") return (await import("./post-tool-use.js")).postToolUseHook(env, io, runtime);
  if (event === "pre-tool-use") return (await import("./pre-tool-use.js")).preToolUseHook(env, io, runtime);
  process.stderr.write(`loupe hook: unknown event ${JSON.stringify(event ?? "")}; ${USAGE}\n`);
  return 1;
}
