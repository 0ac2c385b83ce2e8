export { DEFAULT_SOURCE_RULE, MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS, toSourceLimit } from "./source-rule.js";
export { createSourceRules } from "./source-rules.js";
export type { SourceRule } from "./source-rule.js";
export type { SourceRules } from "./source-rules.js";
