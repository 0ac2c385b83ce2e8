import type { LoupeClient } from "@loupe/client";
import { AppError } from "@loupe/errors";
import { createCutRulePolicy, parseRuleSpec, SEED_RULE } from "./cut-rule-policy.js";
import { createCorePolicy } from "./core-policy.js";
import { createLoupePolicy } from "./loupe-policy.js";
import { CORE_NAME, joinCoreSettings, parseCorePolicyName } from "./parse-core-policy.js";
import type { Policy } from "./policy.js";
import { claudeCodePolicy, codexPolicy, geminiCliPolicy, nonePolicy, opencodePolicy } from "./vendor-policies.js";

/** The policies `loupe eval` runs when none is named. */
export const DEFAULT_POLICY_NAMES: readonly string[] = ["none", "codex", "claude-code", "gemini-cli", "opencode", "seed-rule", "loupe", "loupe:budget=1000"];

const LOCAL: Readonly<Record<string, Policy>> = {
  none: nonePolicy,
  codex: codexPolicy,
  "claude-code": claudeCodePolicy,
  "gemini-cli": geminiCliPolicy,
  opencode: opencodePolicy,
  "seed-rule": createCutRulePolicy("seed-rule", SEED_RULE),
};

const LOUPE_NAME = /^loupe(?::budget=(\d+))?$/;

/** Whether any of `names` needs a running Loupe. */
export function needsLoupe(names: readonly string[]): boolean {
  return names.some((name) => LOUPE_NAME.test(name));
}

/**
 * Builds the policies named in `names` (see {@link DEFAULT_POLICY_NAMES};
 * `loupe:budget=N` for any N; `core`, `core:budget=N[,group.share=X…]`, see
 * `parseCorePolicyName`) followed by one per `--rule` spec. Core policies
 * run in process and need no client. A core policy's settings may come as
 * names of their own after it (a comma-separated list splits them off).
 *
 * @throws AppError `invalid_argument` for an unknown name, a bad core setting or a bad rule;
 *   `failed_precondition` when a Loupe policy is named without a client
 */
export function resolvePolicies(names: readonly string[], rules: readonly string[], client: LoupeClient | undefined): Policy[] {
  const policies: Policy[] = [];
  for (const name of joinCoreSettings(names)) {
    const local = LOCAL[name];
    if (local !== undefined) {
      policies.push(local);
      continue;
    }
    if (CORE_NAME.test(name)) {
      const spec = parseCorePolicyName(name);
      policies.push(createCorePolicy({ name: spec.name, budgetTokens: spec.budgetTokens, shares: spec.shares }));
      continue;
    }
    const loupe = LOUPE_NAME.exec(name);
    if (loupe === null) throw new AppError("invalid_argument", `unknown policy [policy=${name}, known=${[...Object.keys(LOCAL), "loupe", "loupe:budget=N", "core", "core:budget=N,group.share=X"].join("|")}]`);
    if (client === undefined) throw new AppError("failed_precondition", `policy needs a running loupe [policy=${name}]`);
    policies.push(createLoupePolicy(client, { budgetTokens: Number(loupe[1] ?? "0") }));
  }
  for (const spec of rules) {
    const { name, rule } = parseRuleSpec(spec);
    policies.push(createCutRulePolicy(name, rule));
  }
  const seen = policies.map((policy) => policy.name);
  const duplicate = seen.find((name, index) => seen.indexOf(name) !== index);
  if (duplicate !== undefined) throw new AppError("invalid_argument", `policy named twice [policy=${duplicate}]`);
  return policies;
}
