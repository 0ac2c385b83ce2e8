import type { LoupeInvocation } from "../hook/wrap-shell-command.js";

/**
 * The source of Loupe's OpenCode plugin (a file for `~/.config/opencode/plugin/`), which runs
 * `loupe` as `invocation` says: `tool.execute.before` rewrites a `bash` command so that
 * `loupe exec` captures its whole output (OpenCode's own bash capture stops after a few hundred
 * KB) and prints Loupe's first view; `tool.execute.after` replaces the output of other tools
 * (read, grep, MCP tools) by Loupe's first view. Both go through `loupe hook … --runtime
 * opencode`, so they behave as the hooks of the other runtimes do, and leave the tool alone
 * whenever `loupe` fails or is slow. Each passes what the call is for (`loupe_context`: the task,
 * what the model wrote in its earlier messages with their calls' input, what it said and reasoned
 * before the call, its model), read from the session's messages through the plugin's client: OpenCode
 * keeps no transcript file for the hooks to read.
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

// A call as the intent's earlier messages carry it: "[name] " and the text of its input's string and number
// values (nested ones too, in order), at most 2000 characters.
function callText(name, input) {
  const values = [];
  const visit = (value, depth) => {
    if (typeof value === "string") values.push(value);
    else if (typeof value === "number") values.push(String(value));
    else if (depth < 4 && typeof value === "object" && value !== null) for (const item of Object.values(value)) visit(item, depth + 1);
  };
  visit(input, 0);
  return ("[" + name + "] " + values.join(" ")).slice(0, 2000).trimEnd();
}

// Earlier assistant messages passed along, and the end of each that is kept (the intent keeps their last 4 KiB).
const MAX_EARLIER = 8;
const MAX_EARLIER_CHARS = 4096;
// Messages read per call: the latest ones (OpenCode's \`limit\`), enough for the call's own message and the
// earlier ones passed along — not the whole session, whose tool outputs grow with every call.
const RECENT_MESSAGES = 10;
// Each session's task (its first user message), read once: a session's first message does not change.
const tasks = new Map();
const MAX_SESSIONS = 64;

const isText = (part) => (part.type === "text" || part.type === "reasoning") && typeof part.text === "string";
const texts = (parts) => parts.filter(isText).map((part) => part.text);

// The session's task: remembered, else from \`recent\` when it holds the whole session, else from one read of all.
async function taskOf(client, sessionID, recent) {
  if (tasks.has(sessionID)) return tasks.get(sessionID);
  const all = recent.length < RECENT_MESSAGES ? recent : ((await client.session.messages({ path: { id: sessionID } }))?.data ?? []);
  const task = texts(all.find((message) => message.info?.role === "user")?.parts ?? []).join("\\n");
  if (task !== "") {
    tasks.set(sessionID, task);
    if (tasks.size > MAX_SESSIONS) tasks.delete(tasks.keys().next().value);
  }
  return task;
}

// What the call is for, from the session's latest messages: the task (the first user message's text); what the model
// wrote in its earlier messages (their text, reasoning and tool calls with their input, not their output), oldest
// first; what it said and reasoned in the message that asked for the call, before it (else its last message);
// the model that message is from. Nothing when the session cannot be read: the view is then made without it.
async function callContext(client, sessionID, callID) {
  try {
    const messages = (await client.session.messages({ path: { id: sessionID }, query: { limit: RECENT_MESSAGES } }))?.data ?? [];
    const wrote = (parts) =>
      parts
        .flatMap((part) => (isText(part) ? [part.text] : part.type === "tool" && typeof part.tool === "string" ? [callText(part.tool, part.state?.input)] : []))
        .filter((text) => text.trim() !== "")
        .join("\\n")
        .slice(-MAX_EARLIER_CHARS);
    const task = await taskOf(client, sessionID, messages);
    const assistants = messages.filter((message) => message.info?.role === "assistant");
    const asking = assistants.find((message) => (message.parts ?? []).some((part) => part.type === "tool" && part.callID === callID)) ?? assistants.at(-1);
    const before = Math.max(0, assistants.indexOf(asking));
    const earlier = assistants
      .slice(Math.max(0, before - MAX_EARLIER), before)
      .map((message) => wrote(message.parts ?? []))
      .filter((text) => text !== "");
    const parts = asking?.parts ?? [];
    const at = parts.findIndex((part) => part.type === "tool" && part.callID === callID);
    return { task, earlier, asking: texts(at < 0 ? parts : parts.slice(0, at)).join("\\n"), model: asking?.info?.modelID ?? "" };
  } catch {
    return undefined;
  }
}

export const LoupePlugin = async ({ client }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash" || typeof output.args?.command !== "string") return;
    const payload = {
      session_id: input.sessionID,
      hook_event_name: "tool.execute.before",
      tool_name: input.tool,
      tool_input: output.args,
      tool_use_id: input.callID,
      loupe_context: await callContext(client, input.sessionID, input.callID),
    };
    const answer = await loupe(["hook", "pre-tool-use", "--runtime", "opencode"], payload);
    if (typeof answer?.updatedInput?.command === "string") output.args.command = answer.updatedInput.command;
  },
  "tool.execute.after": async (input, output) => {
    if (input.tool === "bash") return;
    const response = typeof output.output === "string" ? output.output : Array.isArray(output.content) ? { content: output.content } : undefined;
    if (response === undefined) return;
    const payload = {
      session_id: input.sessionID,
      hook_event_name: "tool.execute.after",
      tool_name: input.tool,
      tool_input: input.args ?? {},
      tool_use_id: input.callID,
      tool_response: response,
      loupe_context: await callContext(client, input.sessionID, input.callID),
    };
    const answer = await loupe(["hook", "post-tool-use", "--runtime", "opencode"], payload);
    const updated = answer?.updatedToolOutput;
    if (typeof updated === "string" && typeof output.output === "string") output.output = updated;
    else if (Array.isArray(updated?.content)) output.content = updated.content;
  },
});
`;
}
