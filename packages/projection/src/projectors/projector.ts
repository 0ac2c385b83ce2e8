import type { TextView } from "../head-tail-view.js";
import type { TokenCounter } from "../token-counter.js";
import type { ProjectionSharesOverride } from "./projection-shares.js";

/** The kinds of tool result Loupe cuts along their own structure. */
export type ResultKind = "file_read" | "directory_list" | "command" | "search" | "conversation" | "mcp" | "edit" | "structured" | "generic";

/** A tool result's text as a projector sees it. */
export interface ProjectorInput {
  /** The canonical text (text and json parts joined with "\n"). */
  text: string;
  /** splitLines(text): terminators kept. */
  lines: readonly string[];
  toolName: string;
  /** The call's arguments, parsed from args_json ({} when absent or not an object). */
  args: Readonly<Record<string, unknown>>;
  isError: boolean;
  exitCode: number | undefined;
  timedOut: boolean;
  durationMs: number | undefined;
}

/** Budget and identity every projector works within. */
export interface ProjectorContext {
  budgetTokens: number;
  maxViewBytes: number;
  counter: TokenCounter;
  /** The saved result's id for continuations; "" when nothing was saved. */
  resultId: string;
  /** Named field view requested ("" = default). */
  view: string;
  /** Shares of the budget that replace the defaults (DEFAULT_SHARES); validated, each in [0, 1]. */
  shares?: ProjectionSharesOverride;
  /**
   * What the agent is looking for: the task and the assistant text that asked
   * for the call, as the runtime has them ("" or absent = none). Its first
   * MAX_INTENT_BYTES are used. Line-based views keep the lines it points at
   * (and a little context) before ordinary output, and name the matches they
   * leave out with a pattern continuation.
   */
  intent?: string;
}

/**
 * Cuts a result that does not fit into a first view within budget. Called
 * only when the text is over budget or over the byte cap. Pure and
 * deterministic: the same input and context give the same view.
 */
export type Projector = (input: ProjectorInput, context: ProjectorContext) => TextView;
