export {
  DEFAULT_SOURCE_RULE,
  DEFAULT_COMPACT_AT_PERCENT,
  DEFAULT_NOTE_UPDATE_PERCENT,
  MAX_BUDGET_TOKENS,
  MIN_BUDGET_TOKENS,
  mergeRule,
  validateRule,
  toSourceLimit,
} from "./source-rule.js";
export { createSourceRules } from "./source-rules.js";
export type { SourceRule } from "./source-rule.js";
export type { SourceRules } from "./source-rules.js";
