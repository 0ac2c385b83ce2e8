import { textOfParts } from "@loupe/client/intent";
import type { CorpusRow } from "./corpus-row.js";

// mini-SWE-agent's trajectory files (`*.traj.json`, formats `mini-swe-agent-1`
// and `mini-swe-agent-1.1`) read as corpus rows, so `loupe eval` replays a run
// of that agent as it is saved, without converting it first.

type Message = Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A message's text: a string, or the text parts of a list of parts; "" otherwise. */
const textOf = (content: unknown): string => (typeof content === "string" ? content : textOfParts(content));

/** The task: the PR description the first user message wraps, else that message whole. */
function taskOf(text: string): string {
  const wrapped = /Consider the following PR description:\s*\n([\s\S]*?)<\/pr_description>/.exec(text);
  return (wrapped?.[1] ?? text).trim();
}

const BASH_BLOCK = /```(?:bash|sh)[ \t]*\n([\s\S]*?)\n```/;

/** The command an assistant message runs (its bash block, or its first tool call's `command`) and its text as a corpus `next_action`. */
function actionOf(message: Message): { command: string | undefined; action: string } {
  const content = textOf(message["content"]);
  const block = BASH_BLOCK.exec(content);
  if (block !== null) {
    const thought = content
      .slice(0, block.index)
      .trim()
      .replace(/^THOUGHT:\s*/, "");
    const command = block[1] ?? "";
    return { command, action: `${thought}\n[bash] ${command}`.trim() };
  }
  const calls = message["tool_calls"];
  const first: unknown = Array.isArray(calls) ? calls[0] : undefined;
  const fn = isRecord(first) ? first["function"] : undefined;
  if (isRecord(fn) && typeof fn["arguments"] === "string") {
    try {
      const args: unknown = JSON.parse(fn["arguments"]);
      if (isRecord(args) && typeof args["command"] === "string")
        return { command: args["command"], action: `${content.trim()}\n[bash] ${args["command"]}`.trim() };
    } catch {
      // Arguments that are not JSON: the message runs nothing.
    }
  }
  return { command: undefined, action: content.trim() };
}

/**
 * An observation's exit code and output: the saved raw output when the message keeps it (`extra.raw_output`),
 * else its `<output>`, else the head and tail the harness kept of a long one; undefined when the
 * message is no command's observation (a format error).
 */
function observationOf(message: Message): { exitCode: number | undefined; output: string } | undefined {
  const text = textOf(message["content"]);
  const code = /<returncode>(-?\d+)<\/returncode>/.exec(text);
  const exitCode = code === null ? undefined : Number(code[1]);
  const extra = message["extra"];
  if (isRecord(extra) && typeof extra["raw_output"] === "string") return { exitCode, output: extra["raw_output"] };
  const whole = /<output>\n?([\s\S]*)<\/output>/.exec(text);
  if (whole !== null) return { exitCode, output: whole[1] ?? "" };
  const head = /<output_head>\n?([\s\S]*?)<\/output_head>/.exec(text);
  const tail = /<output_tail>\n?([\s\S]*?)<\/output_tail>/.exec(text);
  if (head !== null && tail !== null) return { exitCode, output: `${head[1] ?? ""}\n${tail[1] ?? ""}` };
  return undefined;
}

/** The model a trajectory names (`info.config.model.model_name`, provider first: `openai/gpt-5-mini`); "" when absent. */
function modelOf(data: Record<string, unknown>): string {
  const info = data["info"];
  const config = isRecord(info) ? info["config"] : undefined;
  const model = isRecord(config) ? config["model"] : undefined;
  const name = isRecord(model) ? model["model_name"] : undefined;
  return typeof name === "string" ? name : "";
}

/**
 * The corpus rows of one mini-SWE-agent trajectory file's parsed JSON: one row a command that got an observation
 * and was followed by another assistant message (its `next_action`), stepped from 1. The agent system is
 * `mini-swe-agent (<model>)` when the file names its model. An output the harness cut to its two ends (it keeps
 * no full copy) is that head and tail, as the agent saw it. Undefined when `data` is not such a trajectory.
 */
export function rowsOfMiniSweAgentTrajectory(data: unknown, trajectoryId: string): CorpusRow[] | undefined {
  if (!isRecord(data) || !Array.isArray(data["messages"])) return undefined;
  const format = data["trajectory_format"];
  if (typeof format !== "string" || !format.startsWith("mini-swe-agent")) return undefined;
  const messages = data["messages"].filter(isRecord);
  const model = modelOf(data);
  const agentSystem = model === "" ? "mini-swe-agent" : `mini-swe-agent (${model.slice(model.lastIndexOf("/") + 1)})`;
  const firstUser = messages.find((message) => message["role"] === "user");
  const task = firstUser === undefined ? "" : taskOf(textOf(firstUser["content"]));
  const steps: { command: string | undefined; action: string; observation: Message | undefined }[] = [];
  for (const message of messages) {
    const role = message["role"];
    if (role === "assistant") steps.push({ ...actionOf(message), observation: undefined });
    else if ((role === "user" || role === "tool") && steps.length > 0) {
      const last = steps[steps.length - 1];
      if (last !== undefined && last.observation === undefined) last.observation = message;
    }
  }
  const rows: CorpusRow[] = [];
  steps.forEach(({ command, observation }, index) => {
    const next = steps[index + 1];
    if (command === undefined || observation === undefined || next === undefined || next.action === "") return;
    const seen = observationOf(observation);
    if (seen === undefined) return;
    rows.push({
      agentSystem,
      trajectoryId,
      step: rows.length + 1,
      task,
      tool: "bash",
      args: { command },
      output: seen.output,
      outputAsSeen: seen.output,
      exitCode: seen.exitCode,
      isError: false,
      nextAction: next.action,
      previousAction: "",
      earlierActions: [],
      toolDetail: "",
      model,
    });
  });
  return rows;
}
