import type { LoupeClient } from "@loupe/client";
import { AppError } from "@loupe/errors";
import { createTokenCounter } from "@loupe/projection";
import { createBlindPolicy, createHeadPolicy } from "./blind-policy.js";
import { CONTEXT_EDITING_NAME, createContextEditingPolicy, parseContextEditingName } from "./context-editing-policy.js";
import { createCutRulePolicy, parseRuleSpec, SEED_RULE } from "./cut-rule-policy.js";
import { createCorePolicy } from "./core-policy.js";
import { createLoupePolicy } from "./loupe-policy.js";
import { joinPolicySettings } from "./join-policy-settings.js";
import { CORE_NAME, parseCorePolicyName } from "./parse-core-policy.js";
import { clinePolicy, deepAgentsPolicy } from "./peer-policies.js";
import type { Policy } from "./policy.js";
import { claudeCodePolicy, codexPolicy, geminiCliPolicy, nonePolicy, opencodePolicy } from "./vendor-policies.js";

/** The policies `loupe eval` runs when none is named. */
export const DEFAULT_POLICY_NAMES: readonly string[] = [
  "none",
  "codex",
  "claude-code",
  "gemini-cli",
  "opencode",
  "cline",
  "deep-agents",
  "seed-rule",
  "loupe",
  // What Loupe's hooks give (they send the intent, and the model the session names), and the blind cut of its size.
  "loupe:intent=on,model=recorded",
  "blind:core:intent=on,model=recorded",
  "loupe:budget=1000",
];

const LOCAL: Readonly<Record<string, Policy>> = {
  none: nonePolicy,
  codex: codexPolicy,
  "claude-code": claudeCodePolicy,
  "gemini-cli": geminiCliPolicy,
  opencode: opencodePolicy,
  cline: clinePolicy,
  "deep-agents": deepAgentsPolicy,
  "seed-rule": createCutRulePolicy("seed-rule", SEED_RULE),
};

const LOUPE_NAME = /^loupe(?::(?:budget=(\d+))?(?:,?intent=(on|off))?(?:,?model=([^,\s]+))?)?$/;
const BLIND_PREFIX = "blind:";
const HEAD_PREFIX = "head:";
const withoutCutPrefix = (name: string): string => name.replace(/^(?:blind|head):/, "");
// What a blind or head cut takes beside it: a core or Loupe policy (whose views it cuts to the same size).
const CUTTABLE = /^(?:core|loupe)(?::|$)/;

/** Whether any of `names` needs a running Loupe (a `blind:` or `head:` policy beside a Loupe one does too). */
export function needsLoupe(names: readonly string[]): boolean {
  return names.some((name) => LOUPE_NAME.test(withoutCutPrefix(name)));
}

const KNOWN = [
  ...Object.keys(LOCAL),
  "context-editing:trigger=N,keep=K",
  "loupe",
  "loupe:budget=N,intent=on,model=M|recorded",
  "core",
  "core:budget=N,intent=on|recent|oracle,model=M|recorded,group.share=X",
  "blind",
  "blind:<core or loupe policy>",
  "head:<core or loupe policy>",
].join("|");

/** One named policy (not a rule). */
function policyNamed(name: string, client: LoupeClient | undefined): Policy {
  const local = LOCAL[name];
  if (local !== undefined) return local;
  if (name === "blind" || name.startsWith(BLIND_PREFIX)) {
    const reference = name === "blind" ? "core" : name.slice(BLIND_PREFIX.length);
    if (!CUTTABLE.test(reference)) throw new AppError("invalid_argument", `blind takes a core or loupe policy [policy=${name}]`);
    const counter = createTokenCounter("o200k_base");
    return createBlindPolicy(policyNamed(reference, client), (text) => counter.count(text));
  }
  if (name.startsWith(HEAD_PREFIX)) {
    const reference = name.slice(HEAD_PREFIX.length);
    if (!CUTTABLE.test(reference)) throw new AppError("invalid_argument", `head takes a core or loupe policy [policy=${name}]`);
    const counter = createTokenCounter("o200k_base");
    return createHeadPolicy(policyNamed(reference, client), (text) => counter.count(text));
  }
  if (CONTEXT_EDITING_NAME.test(name)) return createContextEditingPolicy(parseContextEditingName(name));
  if (CORE_NAME.test(name)) {
    const spec = parseCorePolicyName(name);
    return createCorePolicy({ name: spec.name, budgetTokens: spec.budgetTokens, shares: spec.shares, intent: spec.intent, model: spec.model });
  }
  const loupe = LOUPE_NAME.exec(name);
  if (loupe === null) throw new AppError("invalid_argument", `unknown policy [policy=${name}, known=${KNOWN}]`);
  if (client === undefined) throw new AppError("failed_precondition", `policy needs a running loupe [policy=${name}]`);
  return createLoupePolicy(client, { budgetTokens: Number(loupe[1] ?? "0"), intent: loupe[2] === "on", model: loupe[3] ?? "" });
}

/**
 * Builds the policies named in `names` (see {@link DEFAULT_POLICY_NAMES};
 * `loupe:budget=N` for any N, `loupe:intent=on` to send the intent,
 * `loupe:…,model=M` to name a model (`recorded`: each call's own); `core`,
 * `core:budget=N[,intent=on|recent|oracle][,model=M|recorded][,group.share=X…]`, see
 * `parseCorePolicyName`; `blind` beside `core`, `blind:<core or loupe
 * policy>` beside another, see `createBlindPolicy`; `head:<core or loupe policy>`, see
 * `createHeadPolicy`) followed by one per
 * `--rule` spec. Core policies run in process and need no client. A core
 * policy's settings may come as names of their own after it (a
 * comma-separated list splits them off).
 *
 * @throws AppError `invalid_argument` for an unknown name, a bad core setting or a bad rule;
 *   `failed_precondition` when a Loupe policy is named without a client
 */
export function resolvePolicies(names: readonly string[], rules: readonly string[], client: LoupeClient | undefined): Policy[] {
  const policies = joinPolicySettings(names).map((name) => policyNamed(name, client));
  for (const spec of rules) {
    const { name, rule } = parseRuleSpec(spec);
    policies.push(createCutRulePolicy(name, rule));
  }
  const seen = policies.map((policy) => policy.name);
  const duplicate = seen.find((name, index) => seen.indexOf(name) !== index);
  if (duplicate !== undefined) throw new AppError("invalid_argument", `policy named twice [policy=${duplicate}]`);
  return policies;
}
