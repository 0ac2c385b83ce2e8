import { postToolUseHook } from "./post-tool-use.js";

/**
 * `loupe hook <event>`: runs an agent hook. Only `post-tool-use` exists; it
 * always returns 0. An unknown event prints a usage line on stderr and returns
 * 1 (a non-blocking error for Claude Code and Codex, unlike 2, which blocks).
 */
export async function hookCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [event] = args;
  if (event === "post-tool-use") {
    return postToolUseHook(env, {
      stdin: process.stdin,
      writeOut: (text) => void process.stdout.write(text),
      writeErr: (text) => void process.stderr.write(text),
    });
  }
  process.stderr.write(`loupe hook: unknown event ${JSON.stringify(event ?? "")}; usage: loupe hook post-tool-use < payload.json\n`);
  return 1;
}
