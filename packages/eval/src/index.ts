/**
 * @loupe/eval: replays recorded agent trajectories under context policies
 * (what a first view keeps, what the history carries, what a recovery
 * reaches) and reports the figures as tables, JSON or HTML.
 *
 * @packageDocumentation
 */

// Running an evaluation.
export { readCorpus, splitOf } from "./read-corpus.js";
export { runEval } from "./run-eval.js";
export { resolvePolicies, needsLoupe, DEFAULT_POLICY_NAMES } from "./resolve-policies.js";
export { formatReportTable, percent } from "./report-table.js";
export { formatReportHtml } from "./report-html.js";
export { startLoupeServer } from "./start-loupe-server.js";
export { createProgress } from "./progress.js";
export type { Corpus } from "./read-corpus.js";
export type { RunEvalOptions, EvalReport, PolicyReport } from "./run-eval.js";
export type { LoupeServer, StartLoupeServerOptions } from "./start-loupe-server.js";
export type { ProgressStream, ProgressOptions } from "./progress.js";

// Building blocks: rows, policies, evidence, metrics.
export { corpusRowFrom, isShellCall, argsText } from "./corpus-row.js";
export { nonePolicy, codexPolicy, claudeCodePolicy, geminiCliPolicy, opencodePolicy } from "./vendor-policies.js";
export {
  CODEX_LIMIT_CHARS,
  CLAUDE_CODE_SHELL_LIMIT_CHARS,
  CLAUDE_CODE_OTHER_LIMIT_CHARS,
  CLAUDE_CODE_PREVIEW_CHARS,
  GEMINI_LIMIT_CHARS,
  OPENCODE_MAX_LINES,
  OPENCODE_MAX_BYTES,
} from "./vendor-policies.js";
export { createCutRulePolicy, parseRuleSpec, SEED_RULE } from "./cut-rule-policy.js";
export { createLoupePolicy } from "./loupe-policy.js";
export { createCorePolicy, coreResultInput } from "./core-policy.js";
export { parseCorePolicyName, joinCoreSettings } from "./parse-core-policy.js";
export { toolCallOf } from "./tool-call.js";
export { searchSavedOutput, MAX_SEARCH_LINES } from "./saved-file-recovery.js";
export { extractEvidence, evidenceOf } from "./extract-evidence.js";
export { scoreTrajectory, prepareTrajectory, historyTokensOf, emptyTotals, addTotals } from "./score-trajectory.js";
export type { CorpusRow, Trajectory } from "./corpus-row.js";
export type { Policy, PolicyView, Recovery } from "./policy.js";
export type { LoupePolicyOptions } from "./loupe-policy.js";
export type { CorePolicyOptions } from "./core-policy.js";
export type { CorePolicySpec } from "./parse-core-policy.js";
export type { ToolCall } from "./tool-call.js";
export type { EvidenceItem, EvidenceKind } from "./extract-evidence.js";
export type { Totals, PreparedTrajectory } from "./score-trajectory.js";
export { runNoteEval } from "./run-note-eval.js";
export { replayTrajectoryAsTurns } from "./note-replay.js";
export { replaySteps } from "./note-turns.js";
export { carriedEvidence } from "./note-evidence.js";
export { scoreCompaction } from "./note-score.js";
export { formatNoteTable } from "./note-report.js";
export { formatNoteHtml } from "./note-report-html.js";
export type { NoteReport, NoteTotals, RunNoteEvalOptions } from "./run-note-eval.js";
export type { NoteReplayOptions, TrajectoryNotes } from "./note-replay.js";
export type { CompactionScore, Carried } from "./note-score.js";
export type { CarriedItem } from "./note-evidence.js";
