import { createHash } from "node:crypto";
import { sessionContextKey, turnKey, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { StoredTurn } from "@loupe/proto";

/** What {@link appendTurns} needs. */
export interface AppendTurnsInput {
  tenant: string;
  sessionId: string;
  turns: readonly StoredTurn[];
  systemPrompt: string;
  toolsJson: string;
  signal?: AbortSignal;
}

/** What {@link appendTurns} did. */
export interface AppendTurnsOutcome {
  /** Seqs written now, ascending. */
  created: number[];
  /** `sha256:<hex>` of the stored system prompt and tools ("" when not sent). */
  systemHash: string;
  toolsHash: string;
}

/** Turns written at once. */
const CONCURRENCY = 8;
const encoder = new TextEncoder();

/**
 * Writes turns to a session's log, each seq once (a conditional create). A seq already in the log with the
 * same bytes is a duplicate; with other bytes the call fails with `already_exists` naming the seq, after
 * the other turns of the request have been written (nothing accepted is lost).
 */
export async function appendTurns(store: ArchiveStore, input: AppendTurnsInput): Promise<AppendTurnsOutcome> {
  const { tenant, sessionId, signal } = input;
  const options = signal ? { signal } : {};
  const [systemHash, toolsHash] = await Promise.all(
    [input.systemPrompt, input.toolsJson].map(async (text) => {
      if (text === "") return "";
      const bytes = encoder.encode(text);
      const sha = createHash("sha256").update(bytes).digest("hex");
      await store.put(sessionContextKey(tenant, sessionId, sha), bytes, { ...options, ifAbsent: true, contentType: "text/plain; charset=utf-8" });
      return `sha256:${sha}`;
    }),
  );
  const created: number[] = [];
  const conflicts: number[] = [];
  const queue = [...input.turns];
  const worker = async (): Promise<void> => {
    for (let turn = queue.shift(); turn !== undefined; turn = queue.shift()) {
      const key = turnKey(tenant, sessionId, turn.seq);
      const outcome = await store.put(key, turn.turnJson, { ...options, ifAbsent: true, contentType: "application/json" });
      if (outcome === "created") created.push(turn.seq);
      else if (!sameBytes(await store.get(key, options), turn.turnJson)) conflicts.push(turn.seq);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  if (conflicts.length > 0) {
    conflicts.sort((a, b) => a - b);
    throw new AppError(
      "already_exists",
      `turn seq already accepted with other content; the log keeps the first [session=${sessionId.slice(0, 80)}, seqs=${conflicts.slice(0, 10).join(",")}]`,
    );
  }
  return { created: created.sort((a, b) => a - b), systemHash: systemHash ?? "", toolsHash: toolsHash ?? "" };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}
