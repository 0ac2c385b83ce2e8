/** One tool call of a recorded agent trajectory (one line of a corpus file). */
export interface CorpusRow {
  readonly agentSystem: string;
  readonly trajectoryId: string;
  readonly step: number;
  readonly task: string;
  readonly tool: string;
  /** The call's arguments: an object (JSON tools) or the command line (SWE-agent). */
  readonly args: unknown;
  /** The tool's full output. */
  readonly output: string;
  /** What the agent saw when its own harness had cut the output; else the output. */
  readonly outputAsSeen: string;
  readonly exitCode: number | undefined;
  readonly isError: boolean;
  /** The agent's next thought and action. */
  readonly nextAction: string;
  /**
   * The message that issued this call (the previous step's next action), for
   * a row recorded without its previous step (optional `previous_action`);
   * "" when absent.
   */
  readonly previousAction: string;
  /**
   * The agent's next actions before the one that issued this call, oldest first, for a row recorded
   * without its earlier steps (optional `earlier_actions`); empty when absent.
   */
  readonly earlierActions: readonly string[];
  readonly toolDetail: string;
  /** The model the agent ran (`model`, as recorded: `deepseek/deepseek-chat`, `gpt-5.5` …); "" when not recorded. */
  readonly model: string;
}

/** The calls of one trajectory, ordered by step. */
export interface Trajectory {
  readonly agentSystem: string;
  readonly id: string;
  readonly rows: readonly CorpusRow[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Validates one parsed corpus line (fields `agent_system`, `trajectory_id`,
 * `step`, `tool`, `output`, `next_action` required; the rest optional) and
 * maps it to a {@link CorpusRow}; undefined when it is malformed.
 */
export function corpusRowFrom(value: unknown): CorpusRow | undefined {
  if (!isRecord(value)) return undefined;
  const { agent_system: agentSystem, trajectory_id: trajectoryId, step, tool, output, next_action: nextAction } = value;
  if (typeof agentSystem !== "string" || typeof trajectoryId !== "string" || typeof tool !== "string") return undefined;
  if (typeof step !== "number" || !Number.isFinite(step) || typeof output !== "string" || typeof nextAction !== "string") return undefined;
  const asSeen = value["output_as_seen"];
  const exitCode = value["exit_code"];
  return {
    agentSystem,
    trajectoryId,
    step,
    task: typeof value["task"] === "string" ? value["task"] : "",
    tool,
    args: value["args"] ?? null,
    output,
    outputAsSeen: typeof asSeen === "string" ? asSeen : output,
    exitCode: typeof exitCode === "number" && Number.isInteger(exitCode) ? exitCode : undefined,
    isError: value["is_error"] === true,
    nextAction,
    previousAction: typeof value["previous_action"] === "string" ? value["previous_action"] : "",
    earlierActions: Array.isArray(value["earlier_actions"]) ? value["earlier_actions"].filter((action): action is string => typeof action === "string") : [],
    toolDetail: typeof value["tool_detail"] === "string" ? value["tool_detail"] : "",
    model: typeof value["model"] === "string" ? value["model"] : "",
  };
}

const SHELL_TOOL = /^(bash|shell|sh|zsh|execute|execute_bash|execute_command|run_shell_command|run_command|terminal|exec_command|local_shell)$/i;

/**
 * Whether a call ran through a shell. Corpus tool names vary: `bash`
 * (mini-SWE-agent), `execute_bash` (OpenHands), and SWE-agent's commands
 * (`open`, `python`, `ls`, …), which all run in its shell session and have a
 * command-line string as args.
 */
export function isShellCall(row: Pick<CorpusRow, "tool" | "args">): boolean {
  return SHELL_TOOL.test(row.tool) || typeof row.args === "string";
}

/**
 * The call's arguments as text (what the agent typed): a command line as it
 * is; for an object, its string values one a line, then the object as JSON.
 */
export function argsText(row: Pick<CorpusRow, "args">): string {
  if (typeof row.args === "string") return row.args;
  if (row.args === null || row.args === undefined) return "";
  const strings = isRecord(row.args) ? Object.values(row.args).filter((value): value is string => typeof value === "string") : [];
  return [...strings, JSON.stringify(row.args)].join("\n");
}
