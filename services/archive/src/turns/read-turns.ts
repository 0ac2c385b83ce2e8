import { seqFromTurnKey, sessionContextKey, turnKey, turnsPrefix, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import type { ReadTurnsRequest } from "@loupe/proto";

/** A turn as read from the log. */
export interface LoggedTurn {
  seq: number;
  turnJson: Uint8Array;
}

/** What {@link readTurns} answers. */
export interface ReadTurnsOutcome {
  turns: LoggedTurn[];
  lastSeq: number;
  /** The first seq left out because of max_bytes (0 = none). */
  nextSeq: number;
  systemPrompt: string;
  toolsJson: string;
}

const READ_CONCURRENCY = 16;
const HASH = /^sha256:([0-9a-f]{64})$/;
const decoder = new TextDecoder();

/** The seqs in a session's log, ascending. */
export async function listTurnSeqs(store: ArchiveStore, tenant: string, sessionId: string, signal?: AbortSignal): Promise<number[]> {
  const seqs: number[] = [];
  for await (const key of store.list(turnsPrefix(tenant, sessionId), signal ? { signal } : {})) {
    const seq = seqFromTurnKey(key);
    if (seq !== undefined) seqs.push(seq);
  }
  return seqs;
}

/**
 * Reads turns `start_seq`…`end_seq` (end 0 = the last) of a session's log in seq order, stopping before
 * `max_bytes` is passed (always at least one turn), plus the system prompt and tools stored under the hashes asked for.
 * @throws AppError `invalid_argument` for a bad range or hash
 */
export async function readTurns(store: ArchiveStore, tenant: string, request: ReadTurnsRequest, signal?: AbortSignal): Promise<ReadTurnsOutcome> {
  const start = Math.max(1, request.startSeq);
  if (request.endSeq !== 0 && request.endSeq < start) {
    throw new AppError("invalid_argument", `end_seq before start_seq [start_seq=${String(start)}, end_seq=${String(request.endSeq)}]`);
  }
  const options = signal ? { signal } : {};
  const all = await listTurnSeqs(store, tenant, request.sessionId, signal);
  const lastSeq = all.at(-1) ?? 0;
  const wanted = all.filter((seq) => seq >= start && (request.endSeq === 0 || seq <= request.endSeq));
  const turns: LoggedTurn[] = [];
  let bytes = 0;
  let nextSeq = 0;
  // Reads run in windows so max_bytes stops a long range early.
  for (let offset = 0; offset < wanted.length && nextSeq === 0; offset += READ_CONCURRENCY) {
    const window = wanted.slice(offset, offset + READ_CONCURRENCY);
    const bodies = await Promise.all(window.map((seq) => store.get(turnKey(tenant, request.sessionId, seq), options)));
    for (const [index, body] of bodies.entries()) {
      const seq = window[index] ?? 0;
      if (request.maxBytes > 0 && turns.length > 0 && bytes + body.byteLength > request.maxBytes) {
        nextSeq = seq;
        break;
      }
      bytes += body.byteLength;
      turns.push({ seq, turnJson: body });
    }
  }
  const [systemPrompt, toolsJson] = await Promise.all(
    [request.systemHash, request.toolsHash].map(async (hash) => {
      if (hash === "") return "";
      const sha = HASH.exec(hash)?.[1];
      if (sha === undefined) throw new AppError("invalid_argument", `malformed context hash [hash=${hash.slice(0, 80)}]`);
      return decoder.decode(await store.get(sessionContextKey(tenant, request.sessionId, sha), options));
    }),
  );
  return { turns, lastSeq, nextSeq, systemPrompt: systemPrompt ?? "", toolsJson: toolsJson ?? "" };
}
