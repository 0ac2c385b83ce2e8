import { AppError, isAppError } from "@loupe/errors";
import { DEFAULT_SHARES, resolveShares, type ProjectionSharesOverride } from "@loupe/projection";

/** A `core` policy's settings, parsed from its name. */
export interface CorePolicySpec {
  /** The name as given (it labels the policy's rows). */
  readonly name: string;
  /** The first view's budget in tokens; 0 = Loupe's default. */
  readonly budgetTokens: number;
  /** Shares replacing the projection core's defaults; undefined = none. */
  readonly shares: ProjectionSharesOverride | undefined;
  /**
   * Which intent is passed to the core: `on` the runtime's whole intent, `recent` the task and the
   * message that issued the call alone (without the agent's earlier steps), `off` none.
   */
  readonly intent: "on" | "recent" | "oracle" | "off";
  /** The model the request names (`model=gpt-4o`); "" = none. */
  readonly model: string;
}

/** Matches the names {@link parseCorePolicyName} takes (whether valid or not). */
export const CORE_NAME = /^core(?::|$)/;

const MAX_BUDGET_TOKENS = 1_000_000;

/**
 * Parses `core`, `core:budget=N` and `core:budget=N,intent=on,model=M,group.share=X,…`
 * (`intent=on` passes the runtime's intent, `intent=recent` the task and the
 * issuing message alone, `intent=oracle` the intent with the call's own next action in it, a
 * diagnostic ceiling; `model` names the request's
 * model; keys as in ProjectionShares, dotted per group:
 * `command.scriptHead=0.5`, `fileRead.tail=0.4`; in any order, each at most once).
 *
 * @throws AppError `invalid_argument` naming the policy and what is wrong
 */
export function parseCorePolicyName(name: string): CorePolicySpec {
  if (!CORE_NAME.test(name)) throw new AppError("invalid_argument", `not a core policy [policy=${name}]`);
  const settings = name === "core" ? [] : name.slice("core:".length).split(",");
  let budgetTokens = 0;
  let intent: CorePolicySpec["intent"] = "off";
  let model = "";
  // Without prototypes: a key such as __proto__ is a name like any other (and refused as unknown).
  const shares: Record<string, Record<string, number>> = Object.create(null) as Record<string, Record<string, number>>;
  const seen = new Set<string>();
  for (const setting of settings) {
    const [key = "", value, ...more] = setting.split("=");
    if (key === "" || value === undefined || value === "" || more.length > 0)
      throw new AppError("invalid_argument", `core policy settings are key=value, comma-separated [policy=${name}, setting=${setting}]`);
    if (seen.has(key)) throw new AppError("invalid_argument", `core policy setting given twice [policy=${name}, setting=${key}]`);
    seen.add(key);
    if (key === "budget") {
      budgetTokens = Number(value);
      if (!/^\d+$/.test(value) || budgetTokens < 1 || budgetTokens > MAX_BUDGET_TOKENS)
        throw new AppError(
          "invalid_argument",
          `core budget must be a whole number of tokens, 1 to ${String(MAX_BUDGET_TOKENS)} [policy=${name}, budget=${value}]`,
        );
      continue;
    }
    if (key === "intent") {
      if (value !== "on" && value !== "off" && value !== "recent" && value !== "oracle")
        throw new AppError("invalid_argument", `core intent is on, recent, oracle or off [policy=${name}, intent=${value}]`);
      intent = value;
      continue;
    }
    if (key === "model") {
      model = value;
      continue;
    }
    const [group = "", share, ...deeper] = key.split(".");
    if (share === undefined || share === "" || deeper.length > 0)
      throw new AppError(
        "invalid_argument",
        `core policy keys are budget or group.share [policy=${name}, key=${key}, groups=${Object.keys(DEFAULT_SHARES).join("|")}]`,
      );
    // A decimal number only: "0x1", "1_0" and " 1" are refused.
    if (!/^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value))
      throw new AppError("invalid_argument", `share must be a number from 0 to 1 [policy=${name}, share=${key}, value=${value}]`);
    (shares[group] ??= Object.create(null) as Record<string, number>)[share] = Number(value);
  }
  const override = Object.keys(shares).length === 0 ? undefined : (shares as ProjectionSharesOverride);
  try {
    resolveShares(override);
  } catch (error) {
    if (isAppError(error)) throw new AppError("invalid_argument", `${error.message} [policy=${name}]`, { cause: error });
    throw error;
  }
  return { name, budgetTokens, shares: override, intent, model };
}
