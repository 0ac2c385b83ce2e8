export { createTokenCounter } from "./token-counter.js";
export { createCachingCounter, knownPrefix } from "./file-read/caching-counter.js";
export { splitLines } from "./split-lines.js";
export { continuationJson } from "./continuation.js";
export { PROJECTOR_VERSION } from "./projector-version.js";
export { pageText } from "./page-text.js";
export { projectResult, parseArgs, resultKindOf } from "./project-result.js";
export { boundIntent, MAX_INTENT_BYTES } from "./intent/bound-intent.js";
export { DEFAULT_SHARES, resolveShares } from "./projectors/projection-shares.js";
export { inferKind, commandOf } from "./kinds/infer-kind.js";
export { projectCommand } from "./command/project-command.js";
export { classifyLines } from "./command/classify-lines.js";

export { filePathOf } from "./file-read/file-path-of.js";
export { isShellFileRead } from "./file-read/is-shell-file-read.js";

export { cutHeadTail, isEligible as isEligibleForCut, validateCutRule, CUT_NOTICE_VERSION, DEFAULT_CUT_RULE } from "./cut/head-tail-cut.js";

export { modelProfileFor, MAX_VIEW_BYTES, DEFAULT_BUDGET_TOKENS } from "./budget/model-profiles.js";
export { effectiveBudget } from "./budget/effective-budget.js";
export { redactSecrets } from "./redact/redact-secrets.js";
export { compileRedactionRules } from "./redact/compile-redaction-rules.js";
export { parseRedactionRules } from "./redact/parse-redaction-rules.js";
export { DEFAULT_REDACTION_RULES } from "./redact/default-redaction-rules.js";

export { recoverJsonText } from "./structured/recover-json-text.js";

export { parseViewSpecs } from "./structured/view-spec.js";
export { selectView } from "./structured/select-view-spec.js";
export { listViews } from "./structured/list-views.js";

export { applyFieldView } from "./structured/apply-field-view.js";
export { utf8Length } from "./utf8-length.js";
export { estimateTokens } from "./estimate-tokens.js";

export type { TokenCounter, TokenEncoding } from "./token-counter.js";
export type { Continuation } from "./continuation.js";

export type { ResultInput, ResultView, ProjectOptions } from "./project-result.js";

export type { ViewSpec } from "./structured/view-spec.js";

export type { ResultKind } from "./projectors/projector.js";
export type { ProjectionShares, ProjectionSharesOverride } from "./projectors/projection-shares.js";

export type { CutRule } from "./cut/cut-rule.js";

export type { ModelProfile } from "./budget/model-profiles.js";

export type { CompiledRule } from "./redact/redaction-rule.js";
