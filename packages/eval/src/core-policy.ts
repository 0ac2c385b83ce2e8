import { createHash } from "node:crypto";
import {
  compileRedactionRules,
  createTokenCounter,
  DEFAULT_REDACTION_RULES,
  effectiveBudget,
  MAX_VIEW_BYTES,
  modelProfileFor,
  projectResult,
  redactSecrets,
  type ProjectionSharesOverride,
  type ResultInput,
  type TokenCounter,
} from "@loupe/projection";
import type { CorpusRow } from "./corpus-row.js";
import { requestModel } from "./request-model.js";
import type { Policy } from "./policy.js";
import { searchSavedOutput } from "./saved-file-recovery.js";
import { toolCallOf } from "./tool-call.js";

/** Options of {@link createCorePolicy}. */
export interface CorePolicyOptions {
  /** The policy's name; default `core`, or `core:budget=N` with a budget. */
  readonly name?: string;
  /** The first view's budget as a request's budget_tokens; 0 (default) = Loupe's default. */
  readonly budgetTokens?: number;
  /** Shares replacing the projection core's defaults. */
  readonly shares?: ProjectionSharesOverride | undefined;
  /** Default o200k_base. */
  readonly counter?: TokenCounter;
  /**
   * Pass the runtime's intent to the core: "on" the whole of it, "recent" the task and the message
   * that issued the call alone (ViewContext.recentIntent), "oracle" the intent with the call's own
   * next action in it (ViewContext.oracleIntent: a diagnostic ceiling), "off" (the default) none.
   */
  readonly intent?: "on" | "recent" | "oracle" | "off";
  /**
   * The model named in the request ("" = none: an unknown tokenizer, counted with its margin; `recorded`: each
   * call's recorded model, as a hook that reads it sends it); default "".
   */
  readonly model?: string;
}

// As `loupe serve` runs by default: redaction on with the default rules.
const REDACTION_RULES = compileRedactionRules(DEFAULT_REDACTION_RULES);

/**
 * A result id shaped as the gateway's (`r_` + 32 base64url characters), so
 * continuations cost what they cost there. It depends on the call alone, not
 * on the policy: two core policies differ only by their budget and shares (an
 * id's token count shifts a cut view by a line now and then).
 */
function resultIdOf(row: CorpusRow): string {
  return `r_${createHash("sha256")
    .update(`${row.agentSystem}\u0000${row.trajectoryId}\u0000${String(row.step)}`)
    .digest("base64url")
    .slice(0, 32)}`;
}

// Every core policy of a run projects the same rows: each one's text is made once.
const canonical = new WeakMap<CorpusRow, string>();

/**
 * The text the gateway projects and saves for one text part: secrets masked
 * (default rules), then its canonical UTF-8 (a lone surrogate becomes U+FFFD).
 */
function canonicalText(row: CorpusRow): string {
  let text = canonical.get(row);
  if (text === undefined) {
    text = new TextDecoder().decode(new TextEncoder().encode(redactSecrets(row.output, REDACTION_RULES).text));
    canonical.set(row, text);
  }
  return text;
}

/** The ResultInput the gateway builds for a call sent as the `loupe` policy sends it (one text part). */
export function coreResultInput(row: CorpusRow, text: string): ResultInput {
  const call = toolCallOf(row);
  return {
    toolName: call.toolName,
    declaredKind: undefined,
    argsJson: call.argsJson,
    text,
    structuredOnly: false,
    isError: row.isError,
    exitCode: row.exitCode,
    timedOut: false,
    durationMs: undefined,
  };
}

/**
 * Loupe's projection core in process, without a server: each output as the
 * `loupe` policy sends it (the same tool name, args, model and budget: the
 * budget less the named model's estimate margin, 25% when none is named;
 * with `intent`, the runtime's intent as the request's), projected by
 * `projectResult` with optional share overrides and the output kept in memory;
 * a recovery is one search of the saved output (see `searchSavedOutput`).
 * What the server adds is left out: the changed-file notice before a file read
 * whose file changed since an earlier read, and its cost against the budget.
 */
export function createCorePolicy(options: CorePolicyOptions = {}): Policy {
  const requested = options.budgetTokens ?? 0;
  // The projector's budget per model named (one unless the model is each call's recorded one).
  const budgets = new Map<string, number>();
  const budgetFor = (model: string): number => {
    let budget = budgets.get(model);
    if (budget === undefined) budgets.set(model, (budget = effectiveBudget(requested, undefined, modelProfileFor(model)).projectorBudgetTokens));
    return budget;
  };
  const counter = options.counter ?? createTokenCounter("o200k_base");
  const shares = options.shares;
  return {
    name: options.name ?? (requested > 0 ? `core:budget=${String(requested)}` : "core"),
    view: async (row, _session, context) => {
      const text = canonicalText(row);
      const view = projectResult(coreResultInput(row, text), {
        budgetTokens: budgetFor(requestModel(options.model ?? "", row)),
        maxViewBytes: MAX_VIEW_BYTES,
        counter,
        resultId: resultIdOf(row),
        view: "",
        source: "loupe-eval",
        ...(shares === undefined ? {} : { shares }),
        ...(options.intent === "on" ? { intent: context?.intent ?? "" } : {}),
        ...(options.intent === "recent" ? { intent: context?.recentIntent ?? "" } : {}),
        ...(options.intent === "oracle" ? { intent: context?.oracleIntent ?? "" } : {}),
      });
      if (view.unchanged) return { firstView: text, saved: false };
      return { firstView: view.text, saved: true, recover: async (evidence) => searchSavedOutput(text, evidence) };
    },
  };
}
