import type { LoupeClient } from "@loupe/client";
import { AppError } from "@loupe/errors";
import type { TokenCounter } from "@loupe/projection";
import { CompactPath, HistoryFormat } from "@loupe/proto";
import type { Trajectory } from "./corpus-row.js";
import { scoreCompaction, type CompactionScore } from "./note-score.js";
import { createTurnReader } from "./note-context.js";
import { replaySteps } from "./note-turns.js";

/** Options of {@link replayTrajectoryAsTurns}. */
export interface NoteReplayOptions {
  readonly counter: TokenCounter;
  /** The model's context window; Loupe says when compaction is due within it. */
  readonly windowTokens: number;
  /** Tokens the runtime keeps free for the model's answer when it compacts; default 10% of the window. */
  readonly reserveTokens?: number;
  /** The source's note threshold (share of the window), to tell when the worker has caught up; default 20. */
  readonly noteUpdatePercent?: number;
  /** Longest wait for the note-worker before compacting anyway; default 30,000 ms. */
  readonly settleTimeoutMs?: number;
  /** Rule source of the sessions; default `loupe-eval`. */
  readonly source?: string;
}

/** One replayed trajectory: its compactions, each scored. */
export interface TrajectoryNotes {
  readonly compactions: readonly CompactionScore[];
  /** Whether the session ever reached the compaction point. */
  readonly compacted: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the note-worker has folded every cut the turns call for (the
 * turns after the note are under the note threshold), as a runtime would while
 * the model works; gives up after the timeout (Compact then takes FALLBACK).
 */
async function settle(client: LoupeClient, sessionId: string, thresholdTokens: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { note } = await client.getNote({ sessionId });
    if (note !== undefined && note.lagTokens < thresholdTokens) return;
    await sleep(50);
  }
}

/**
 * Replays one trajectory as a session of turns (see `replaySteps`) into a
 * running Loupe with the note-worker: step by step, with the window given;
 * whenever AppendTurns says compaction is due (and the trajectory goes on), it
 * waits for the worker to catch up, calls Compact (Anthropic format) as a
 * runtime would, and carries on in the compacted session. Each compaction is
 * then scored against the actions that follow it (see `scoreCompaction`).
 * The session is ended (its state released) afterwards; its log stays.
 */
export async function replayTrajectoryAsTurns(
  client: LoupeClient,
  trajectory: Trajectory,
  sessionId: string,
  options: NoteReplayOptions,
): Promise<TrajectoryNotes> {
  const { windowTokens } = options;
  const reserveTokens = options.reserveTokens ?? Math.floor(windowTokens / 10);
  if (reserveTokens >= windowTokens) throw new AppError("invalid_argument", `reserve must be below the window [window=${String(windowTokens)}]`);
  const threshold = Math.max(1, Math.floor((windowTokens * (options.noteUpdatePercent ?? 20)) / 100));
  const steps = replaySteps(trajectory);
  const turns = steps.flatMap((step) => step.turnTexts).map((turn) => ({ ...turn, tokens: options.counter.count(turn.text) }));
  const reader = createTurnReader(client, sessionId);
  const points: Array<{ afterRow: number; response: Awaited<ReturnType<LoupeClient["compact"]>> }> = [];
  try {
    for (const step of steps) {
      const appended = await client.appendTurns({
        sessionId,
        source: options.source ?? "loupe-eval",
        turns: [...step.turns],
        contextWindowTokens: windowTokens,
      });
      if (!appended.compactionDue || step.rowIndex === steps.length - 1) continue;
      await settle(client, sessionId, threshold, options.settleTimeoutMs ?? 30_000);
      const response = await client.compact({ sessionId, format: HistoryFormat.ANTHROPIC, contextLimitTokens: windowTokens, reserveTokens });
      points.push({ afterRow: step.rowIndex, response });
    }
    const compactions: CompactionScore[] = [];
    for (const [index, point] of points.entries()) {
      const untilRow = points[index + 1]?.afterRow ?? trajectory.rows.length;
      const { response } = point;
      compactions.push(
        await scoreCompaction(client, {
          trajectory,
          sessionId,
          afterRow: point.afterRow,
          untilRow,
          turns,
          reader,
          counter: options.counter,
          path: response.path === CompactPath.PREPARED ? "prepared" : "fallback",
          noteText: response.note?.text ?? "",
          watermarkSeq: response.watermarkSeq,
          contextJson: new TextDecoder().decode(response.messagesJson),
          contextTokens: response.tokens,
        }),
      );
    }
    return { compactions, compacted: points.length > 0 };
  } finally {
    await client.endSession({ sessionId }).catch(() => undefined);
  }
}
