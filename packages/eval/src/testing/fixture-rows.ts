import type { TokenCounter } from "@loupe/projection";
import type { CorpusRow, Trajectory } from "../corpus-row.js";

/** One token per whitespace-separated word, so that a test's figures can be worked out by hand. */
export const wordCounter: TokenCounter = {
  encoding: "o200k_base",
  count: (text) => text.split(/\s+/).filter((word) => word !== "").length,
  within: (text, limit) => (wordCounter.count(text) <= limit ? wordCounter.count(text) : false),
};

/** A row of trajectory `t1` of agent system `fixture`: a bash call `run` with no task, unless `fields` say otherwise. */
export function fixtureRow(step: number, output: string, nextAction: string, fields: Partial<CorpusRow> = {}): CorpusRow {
  return {
    agentSystem: "fixture",
    trajectoryId: "t1",
    step,
    task: "",
    tool: "bash",
    args: { command: "run" },
    output,
    outputAsSeen: output,
    exitCode: 0,
    isError: false,
    nextAction,
    previousAction: "",
    earlierActions: [],
    toolDetail: "",
    model: "",
    ...fields,
  };
}

/** A trajectory of agent system `fixture` holding `rows`. */
export function fixtureTrajectory(id: string, rows: readonly CorpusRow[]): Trajectory {
  return { agentSystem: "fixture", id, rows };
}
