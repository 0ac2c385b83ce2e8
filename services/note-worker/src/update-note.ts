import { contiguousAfter, type NoteRecord, type Summarizer, type Turn } from "@loupe/conversation";
import type { TurnAppendedData } from "@loupe/events";
import type { SourceRule, SourceRules } from "@loupe/rules";
import type { Logger } from "@loupe/runtime";
import type { SessionStore } from "@loupe/session-store";
import { countMetric, recordMetric } from "@loupe/telemetry";
import { foldIntoNote } from "./fold-into-note.js";
import type { TurnReader } from "./turn-reader.js";

/** What a note update needs. */
export interface NoteUpdaterDeps {
  sessions: SessionStore;
  rules: SourceRules;
  turns: TurnReader;
  summarizerFor: (rule: SourceRule) => Summarizer;
  /** Tokens of a note as the runtime's model will see it. */
  countNoteTokens: (text: string) => number;
  workerId: string;
  leaseMs: number;
  maxNoteTokens: number;
  logger: Logger;
}

/** What one event led to. */
export type NoteUpdateOutcome =
  /** The note moved forward (`updates` times). */
  | { kind: "updated"; updates: number }
  /** Turns seen; not enough uncovered tokens for an update yet. */
  | { kind: "pending" }
  /** An earlier run already saw this turn. */
  | { kind: "seen" }
  /** Another run holds the session; it was asked to run once more. */
  | { kind: "deferred" }
  /** The session was ended (its state released). */
  | { kind: "released" };

/** Note updates one event may chain before yielding. */
const MAX_UPDATES_PER_EVENT = 64;

/** The seq through which the next note covers: the first turn at which the uncovered tokens reach `threshold`, if any. */
export function nextCut(run: readonly Turn[], threshold: number): number | undefined {
  let tokens = 0;
  for (const [index, turn] of run.entries()) {
    tokens += turn.tokenCount;
    if (tokens >= threshold) return index;
  }
  return undefined;
}

let runs = 0;

/**
 * Brings a session's note up to date after a turn event. One run at a time per session (a lease); an
 * event that finds the session taken marks it pending and returns, and the holder runs once more before
 * it lets go — so no two replicas do the same work and no event is left waiting on redelivery.
 */
export async function updateNote(
  deps: NoteUpdaterDeps,
  tenant: string,
  event: TurnAppendedData,
  options: { onProgress: () => void; lastAttempt: boolean; signal?: AbortSignal },
): Promise<NoteUpdateOutcome> {
  const { sessions } = deps;
  const sessionId = event.sessionId;
  const progress = await sessions.getProgress(tenant, sessionId);
  if (event.seq <= progress.seenThroughSeq) return { kind: "seen" };
  runs += 1;
  const owner = `${deps.workerId}/${String(runs)}`;
  let updates = 0;
  for (;;) {
    if (!(await sessions.acquireLease(tenant, sessionId, owner, deps.leaseMs))) {
      await sessions.markPending(tenant, sessionId);
      // The holder may have let go between the two calls: then nobody would see the mark.
      if (!(await sessions.acquireLease(tenant, sessionId, owner, deps.leaseMs))) return updates > 0 ? { kind: "updated", updates } : { kind: "deferred" };
    }
    let outcome: NoteUpdateOutcome;
    try {
      outcome = await catchUp(deps, tenant, sessionId, owner, options);
    } finally {
      await sessions.releaseLease(tenant, sessionId, owner);
    }
    if (outcome.kind === "updated") updates += outcome.updates;
    if (outcome.kind === "released" || !(await sessions.takePending(tenant, sessionId))) {
      return updates > 0 ? { kind: "updated", updates } : outcome;
    }
  }
}

/**
 * Under the lease: reads the session's meta, rule, note and the log after the note's watermark once, then,
 * each time the uncovered turns reach the threshold, folds exactly those turns into the note and stores it
 * by compare-and-set on the note's version — so every turn goes into the note once, in seq order, and the
 * cut points depend only on the turns (not on timing), which makes the note the same after a crash and
 * redelivery. Turns appended meanwhile are the next run's (their events mark the session pending); only a
 * note written by someone else meanwhile makes this run read the note and the log again.
 */
async function catchUp(
  deps: NoteUpdaterDeps,
  tenant: string,
  sessionId: string,
  owner: string,
  options: { onProgress: () => void; lastAttempt: boolean; signal?: AbortSignal },
): Promise<NoteUpdateOutcome> {
  const { sessions } = deps;
  const readRun = async (note: NoteRecord | undefined): Promise<Turn[]> => {
    const covered = note?.coveredThroughSeq ?? 0;
    return contiguousAfter((await deps.turns.read(tenant, sessionId, { startSeq: covered + 1, endSeq: 0 }, options.signal)).turns, covered);
  };
  const [meta, first] = await Promise.all([sessions.getMeta(tenant, sessionId), sessions.getNote(tenant, sessionId)]);
  if (meta === undefined) return { kind: "released" };
  let note = first;
  const [rule, firstRun] = await Promise.all([deps.rules.get(tenant, meta.source), readRun(note)]);
  let run = firstRun;
  const threshold = Math.max(1, Math.floor((meta.contextWindowTokens * rule.noteUpdatePercent) / 100));
  let updates = 0;
  for (;;) {
    const cut = updates < MAX_UPDATES_PER_EVENT ? nextCut(run, threshold) : undefined;
    if (cut === undefined) {
      recordMetric(
        "loupe.note.lag_tokens",
        run.reduce((total, turn) => total + turn.tokenCount, 0),
      );
      const seen = (note?.coveredThroughSeq ?? 0) + run.length;
      const current = await sessions.getProgress(tenant, sessionId);
      if (seen > current.seenThroughSeq) await sessions.compareAndSetProgress(tenant, sessionId, current, { seenThroughSeq: seen });
      return updates > 0 ? { kind: "updated", updates } : { kind: "pending" };
    }
    const newTurns = run.slice(0, cut + 1);
    const next = await foldIntoNote(
      deps,
      tenant,
      { sessionId, owner, rule, note, newTurns, contextWindowTokens: meta.contextWindowTokens, systemHash: meta.systemHash, toolsHash: meta.toolsHash },
      options,
    );
    // Still the holder? If the lease lapsed, another run took over from the stored note: leave it to that run.
    if (!(await sessions.renewLease(tenant, sessionId, owner, deps.leaseMs))) return updates > 0 ? { kind: "updated", updates } : { kind: "deferred" };
    if (!(await sessions.putNote(tenant, sessionId, note?.version ?? 0, next.note))) {
      // A note written meanwhile (PutNote, Compact's fallback) wins; go on from it.
      note = await sessions.getNote(tenant, sessionId);
      run = await readRun(note);
      continue;
    }
    updates += 1;
    note = next.note;
    run = run.slice(cut + 1);
    const { version, coveredThroughSeq, author } = next.note;
    countMetric("loupe.note.updates", { author });
    // The vendor's prompt cache: how much of the request it served (the fork reuses the session's prefix).
    deps.logger.info("note updated", {
      sessionId,
      version,
      coveredThroughSeq,
      author,
      inputTokens: next.inputTokens,
      cachedInputTokens: next.cachedInputTokens,
    });
  }
}
