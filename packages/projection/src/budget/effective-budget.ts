import { AppError } from "@loupe/errors";
import type { ModelProfile } from "./model-profiles.js";

/** The token budget of one first view and where it came from. */
export interface EffectiveBudget {
  /** The budget in the model's own tokens: the request's, else the rule's, else the profile's default. */
  budgetTokens: number;
  /**
   * The budget handed to the projector, in the profile's encoding:
   * floor(budgetTokens / (1 + marginRatio)), at least 1. Equal to budgetTokens
   * for exact profiles.
   */
  projectorBudgetTokens: number;
  source: "request" | "rule" | "default";
}

/**
 * The budget for one Project call. The request's budget_tokens overrides the
 * source rule's; 0 (or undefined for the rule's optional field) means unset,
 * and then the profile's default applies. For an estimated profile the
 * projector's budget is reduced by the profile's margin so the model's real
 * count stays within the budget.
 * Throws AppError "invalid_argument" when a budget is not a whole number ≥ 0.
 */
export function effectiveBudget(requestBudget: number, ruleBudget: number | undefined, profile: ModelProfile): EffectiveBudget {
  checkBudget("budget_tokens", requestBudget);
  if (ruleBudget !== undefined) checkBudget("rule budget_tokens", ruleBudget);
  const [budgetTokens, source] =
    requestBudget > 0
      ? [requestBudget, "request" as const]
      : ruleBudget !== undefined && ruleBudget > 0
        ? [ruleBudget, "rule" as const]
        : [profile.defaultBudgetTokens, "default" as const];
  // In basis points, so that 2,200 / 1.1 is 2,000 and not 1,999.999….
  const marginBasisPoints = Math.round(profile.marginRatio * 10_000);
  const projectorBudgetTokens = marginBasisPoints > 0 ? Math.max(1, Math.floor((budgetTokens * 10_000) / (10_000 + marginBasisPoints))) : budgetTokens;
  return { budgetTokens, projectorBudgetTokens, source };
}

function checkBudget(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new AppError("invalid_argument", `${name} must be a whole number of tokens, 0 or more [${name}=${String(value)}]`);
}
