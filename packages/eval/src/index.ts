/**
 * @loupe/eval: replays recorded agent trajectories under context policies
 * (what a first view keeps, what the history carries, what a recovery
 * reaches) and reports the figures as tables, JSON or HTML.
 *
 * @packageDocumentation
 */

// Running an evaluation.
export { linesOf, readCorpus, splitOf } from "./read-corpus.js";
export { findCorpusFiles } from "./find-corpus-files.js";
export { runEval } from "./run-eval.js";
export { resolvePolicies, needsLoupe, DEFAULT_POLICY_NAMES } from "./resolve-policies.js";
export { formatReportTable, percent } from "./report-table.js";
export { formatLongTable } from "./report-long.js";
export { compareViews, formatViewComparison } from "./compare-views.js";
export type { ComparedView, ViewComparison, ViewPair } from "./compare-views.js";
export { blindComparisons, pairedDifference } from "./paired-difference.js";
export type { BlindComparison, PairedDifference } from "./paired-difference.js";
export { formatReportHtml } from "./report-html.js";
export { startLoupeServer } from "./start-loupe-server.js";
export { createProgress } from "./progress.js";
export type { Corpus, TrajectoryFile } from "./read-corpus.js";
export { rowsOfMiniSweAgentTrajectory } from "./mini-swe-agent-trajectory.js";

export type { LoupeServer } from "./start-loupe-server.js";

// Building blocks other packages use: rows, policies, metrics.
export { intentOf } from "./intent-of.js";
export type { Trajectory } from "./corpus-row.js";
export type { Recovery } from "./policy.js";
export type { ToolCall } from "./tool-call.js";
export { commandLineOf } from "./tool-call.js";
export { isLoupeView } from "./loupe-view.js";
export type { Totals } from "./score-trajectory.js";
export type { EvidenceMiss } from "./evidence-miss.js";

// Handover notes.
export { runNoteEval } from "./run-note-eval.js";
export { formatNoteTable } from "./note-report.js";
export { formatNoteHtml } from "./note-report-html.js";
export type { NoteTotals } from "./run-note-eval.js";

export type { CompactionScore, Carried } from "./note-score.js";
