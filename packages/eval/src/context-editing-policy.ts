import { AppError } from "@loupe/errors";
import type { HistoryClearing, Policy } from "./policy.js";

/**
 * Anthropic's context editing (`clear_tool_uses_20250919`) at its defaults: once the prompt holds
 * 100,000 input tokens, every tool result but the 3 most recent is replaced by a placeholder.
 */
export const CONTEXT_EDITING_DEFAULTS = { triggerTokens: 100_000, keep: 3 } as const;

/** The tokens a cleared result leaves in the history (a one-line placeholder, such as "[cleared]"). */
export const CLEARED_PLACEHOLDER_TOKENS = 3;

/** A `context-editing` policy's settings. */
export interface ContextEditingSpec {
  readonly name: string;
  /** The history's tokens at which results are cleared. */
  readonly triggerTokens: number;
  /** How many of the most recent results are never cleared. */
  readonly keep: number;
}

const NAME = /^context-editing(?::(.*))?$/;
const MAX_TRIGGER_TOKENS = 10_000_000;
const MAX_KEEP = 10_000;

/** Matches the names {@link parseContextEditingName} takes (whether valid or not). */
export const CONTEXT_EDITING_NAME = /^context-editing(?::|$)/;

/**
 * Parses `context-editing` and `context-editing:trigger=N,keep=K` (either setting alone, each at most once;
 * trigger ≥ 1, keep ≥ 0).
 *
 * @throws AppError `invalid_argument` naming the policy and what is wrong
 */
export function parseContextEditingName(name: string): ContextEditingSpec {
  const match = NAME.exec(name);
  if (match === null) throw new AppError("invalid_argument", `not a context-editing policy [policy=${name}]`);
  let triggerTokens: number = CONTEXT_EDITING_DEFAULTS.triggerTokens;
  let keep: number = CONTEXT_EDITING_DEFAULTS.keep;
  const seen = new Set<string>();
  for (const setting of match[1] === undefined ? [] : match[1].split(",")) {
    const [key = "", value = "", ...more] = setting.split("=");
    const number = /^\d{1,8}$/.test(value) ? Number(value) : Number.NaN;
    if (more.length > 0 || (key !== "trigger" && key !== "keep") || seen.has(key))
      throw new AppError("invalid_argument", `context-editing takes trigger=N and keep=K once each [policy=${name}, setting=${setting}]`);
    seen.add(key);
    if (key === "trigger") {
      if (!(number >= 1 && number <= MAX_TRIGGER_TOKENS))
        throw new AppError("invalid_argument", `trigger must be a whole number from 1 to ${String(MAX_TRIGGER_TOKENS)} [policy=${name}]`);
      triggerTokens = number;
    } else {
      if (!(number >= 0 && number <= MAX_KEEP))
        throw new AppError("invalid_argument", `keep must be a whole number from 0 to ${String(MAX_KEEP)} [policy=${name}]`);
      keep = number;
    }
  }
  return { name, triggerTokens, keep };
}

/**
 * How context editing clears a history: when the results in it hold `triggerTokens` or more, every one
 * but the last `keep` (each then takes CLEARED_PLACEHOLDER_TOKENS). The server decides afresh for every
 * request from the whole history the client sends, so once the trigger is reached every later request is
 * cleared too. Only results are counted, as everywhere in the eval: the real trigger counts the whole
 * prompt (system, tools, messages), so it fires sooner than this.
 */
export function contextEditingClears(triggerTokens: number, keep: number): HistoryClearing {
  return {
    clearedOf: (perStep) => (perStep.reduce((sum, tokens) => sum + tokens, 0) < triggerTokens ? 0 : Math.max(0, perStep.length - keep)),
    placeholderTokens: CLEARED_PLACEHOLDER_TOKENS,
  };
}

/**
 * `context-editing[:trigger=N,keep=K]`: every result arrives whole (nothing is cut or saved), and the
 * history is edited afterwards as Anthropic's `clear_tool_uses_20250919` edits it (see
 * contextEditingClears). A cleared result is gone: the agent runs its tool again to see it.
 */
export function createContextEditingPolicy(spec: ContextEditingSpec): Policy {
  return {
    name: spec.name,
    view: async (row) => ({ firstView: row.output, saved: false }),
    clears: contextEditingClears(spec.triggerTokens, spec.keep),
  };
}
