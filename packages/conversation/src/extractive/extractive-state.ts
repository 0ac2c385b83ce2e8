/**
 * The facts the extractive summarizer carries between note updates. Plain
 * JSON data: absent values are `null`, never `undefined`, so a state survives
 * `JSON.stringify` / `JSON.parse` unchanged and folding the parsed copy gives
 * the same result as folding the original. Every list is bounded, so the
 * state's size does not grow with the number of turns.
 */

/** How a tool call touched a file. */
export type FileAccess = "read" | "created" | "edited" | "deleted" | "used";

/** A sentence (or list item) of assistant text and the turns that said it, oldest first. */
export interface SentenceFact {
  text: string;
  seqs: number[];
}

/** A file a tool call named. */
export interface FileFact {
  path: string;
  /** Each kind of access in the order it first happened, with the turns of its latest calls (oldest first). */
  access: { kind: FileAccess; seqs: number[] }[];
}

/** A failed tool call. */
export interface ErrorFact {
  /** Identifies "the same command" for {@link ErrorFact.resolvedSeq}. */
  key: string;
  /** The command or the tool (and its file), one line. */
  call: string;
  /** The first decisive error line of the output, trimmed. */
  line: string;
  /** The turns that carried the latest failed results with this line, oldest first. */
  seqs: number[];
  /** The turn of a later successful run of the same call, or null. */
  resolvedSeq: number | null;
}

/** A tool call the state has seen. */
export interface CallFact {
  toolUseId: string;
  /** `Bash \`npm test\``, `Edit src/a.ts`: one line. */
  summary: string;
  key: string;
  /** How its result is judged (see `judgementOf`). */
  judgement: "exit" | "output" | "search";
  /** Files a file tool's call touches once it succeeds (a failed edit touched nothing); [] for shell calls, recorded at once. */
  files: { path: string; access: FileAccess }[];
  /** The assistant turn that made the call. */
  seq: number;
  /** `lost`: a later assistant turn came while it had no result. */
  outcome: "pending" | "ok" | "failed" | "lost";
  /** The turn that carried the result, or null while pending. */
  resultSeq: number | null;
}

/** An item of the agent's own plan (a todo/plan tool) or a next step it wrote. */
export interface PlanItem {
  text: string;
  seq: number;
}

/** A code name the agent used (in its text or its calls' arguments): how many turns used it, and the latest. */
export interface NameFact {
  name: string;
  count: number;
  seq: number;
}

/** A saved tool output the note cites: the result id to recover it whole. */
export interface ResultFact {
  resultId: string;
  toolName: string;
  kind: string;
  path: string;
  originalTokens: number;
  /** The turn that carried the (projected) result back. */
  seq: number;
}

/** Everything the note is rendered from. */
export interface ExtractiveState {
  /** Format version of this object. */
  v: 1;
  /** The last seq folded in (0 before any). */
  lastSeq: number;
  /** The task anchor: the first user text. */
  objective: SentenceFact | null;
  /** What an earlier note (another author's) said, kept when its state could not be continued. */
  carried: { text: string; throughSeq: number } | null;
  /** Later user messages (not tool results), oldest first. */
  requests: PlanItem[];
  decisions: SentenceFact[];
  /** Most recently touched first. */
  files: FileFact[];
  /** Oldest first. */
  errors: ErrorFact[];
  /** The latest assistant text. */
  latest: PlanItem | null;
  /** The latest calls, oldest first; pending calls stay until answered or pushed out. */
  calls: CallFact[];
  /** The latest plan the agent wrote with a todo/plan tool. */
  todos: PlanItem[];
  /** Next steps from the latest assistant text that named any. */
  nextSteps: PlanItem[];
  /** Code names the agent used, most used kept (absent in states written before names were kept). */
  names: NameFact[];
  /** Saved outputs the turns answered with, oldest first (absent in states written before results were cited). */
  results?: ResultFact[];
}

/** Bounds of the state's lists and texts. */
export const LIMITS = {
  objectiveChars: 600,
  requests: 3,
  requestChars: 300,
  decisions: 12,
  sentenceChars: 280,
  files: 40,
  fileSeqs: 2,
  errorSeqs: 3,
  decisionSeqs: 3,
  pathChars: 240,
  errors: 12,
  errorLineChars: 200,
  callChars: 120,
  latestChars: 500,
  calls: 24,
  callFiles: 4,
  recentCalls: 5,
  todos: 10,
  nextSteps: 6,
  carriedChars: 1200,
  names: 80,
  results: 12,
  nameMinChars: 4,
  nameMaxChars: 80,
} as const;

/** A state with no facts. */
export function emptyExtractiveState(): ExtractiveState {
  return {
    v: 1,
    lastSeq: 0,
    objective: null,
    carried: null,
    requests: [],
    decisions: [],
    files: [],
    errors: [],
    latest: null,
    calls: [],
    todos: [],
    nextSteps: [],
    names: [],
    results: [],
  };
}

const LIST_KEYS = ["requests", "decisions", "files", "errors", "calls", "todos", "nextSteps"] as const;

/**
 * Whether `value` has the shape of an {@link ExtractiveState} (version 1).
 * Checks the top level and the list fields; used to tell this summarizer's
 * state from another author's. `names` may be absent (a state stored before
 * names were kept).
 */
export function isExtractiveState(value: unknown): value is ExtractiveState {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record["v"] !== 1 || typeof record["lastSeq"] !== "number") return false;
  if (!LIST_KEYS.every((key) => Array.isArray(record[key]))) return false;
  if (record["names"] !== undefined && !Array.isArray(record["names"])) return false;
  if (record["results"] !== undefined && !Array.isArray(record["results"])) return false;
  return ["objective", "carried", "latest"].every((key) => record[key] === null || typeof record[key] === "object");
}
