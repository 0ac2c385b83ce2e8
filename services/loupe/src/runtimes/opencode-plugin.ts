import type { LoupeInvocation } from "../hook/wrap-shell-command.js";

/**
 * The source of Loupe's OpenCode plugin (a file for `~/.config/opencode/plugin/`), which runs
 * `loupe` as `invocation` says: `tool.execute.before` rewrites a `bash` command so that
 * `loupe exec` captures its whole output (OpenCode's own bash capture stops after a few hundred
 * KB) and prints Loupe's first view; `tool.execute.after` replaces the output of other tools
 * (read, grep, MCP tools) by Loupe's first view. Both go through `loupe hook … --runtime
 * opencode`, so they behave as the hooks of the other runtimes do, and leave the tool alone
 * whenever `loupe` fails or is slow.
 */
export function opencodePluginSource(invocation: LoupeInvocation): string {
  return `// Loupe for OpenCode (written by \`loupe plugin opencode\`): shell commands run through \`loupe exec\`,
// which saves their whole output in Loupe and shows its first view; long results of other tools are
// replaced by Loupe's first view, with exact continuations for what it left out.
import { spawn } from "node:child_process";

const LOUPE = ${JSON.stringify(invocation.argv)};
const TIMEOUT_MS = 10000;

function loupe(args, payload) {
  return new Promise((resolve) => {
    const [program, ...prefix] = LOUPE;
    const child = spawn(program, [...prefix, ...args], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk) => (out += chunk));
    child.on("error", () => resolve(undefined));
    child.on("close", () => {
      clearTimeout(timer);
      try {
        resolve(out.trim() === "" ? undefined : JSON.parse(out));
      } catch {
        resolve(undefined);
      }
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

export const LoupePlugin = async () => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash" || typeof output.args?.command !== "string") return;
    const payload = { session_id: input.sessionID, hook_event_name: "tool.execute.before", tool_name: input.tool, tool_input: output.args };
    const answer = await loupe(["hook", "pre-tool-use", "--runtime", "opencode"], payload);
    if (typeof answer?.updatedInput?.command === "string") output.args.command = answer.updatedInput.command;
  },
  "tool.execute.after": async (input, output) => {
    if (input.tool === "bash") return;
    const response = typeof output.output === "string" ? output.output : Array.isArray(output.content) ? { content: output.content } : undefined;
    if (response === undefined) return;
    const payload = { session_id: input.sessionID, hook_event_name: "tool.execute.after", tool_name: input.tool, tool_input: input.args ?? {}, tool_use_id: input.callID, tool_response: response };
    const answer = await loupe(["hook", "post-tool-use", "--runtime", "opencode"], payload);
    const updated = answer?.updatedToolOutput;
    if (typeof updated === "string" && typeof output.output === "string") output.output = updated;
    else if (Array.isArray(updated?.content)) output.content = updated.content;
  },
});
`;
}
