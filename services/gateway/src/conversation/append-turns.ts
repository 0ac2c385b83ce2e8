import { validateSessionId } from "@loupe/archive-store/content";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { encodeTurnJson, type Turn } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import { publishTurnEvents } from "@loupe/events";
import { injectTraceHeaders } from "@loupe/telemetry";
import type { AppendTurnsRequest, AppendTurnsResponseSchema } from "@loupe/proto";
import { countText, countTurn } from "./count-turn.js";
import { DEFAULT_SOURCE, type ConversationDeps } from "./conversation-deps.js";
import { requestedReason } from "./request-handover.js";
import { sessionTokens } from "./session-tokens.js";
import { turnFromProto } from "./turn-codec.js";

const MAX_TURNS = 1000;
const MAX_CONTEXT_WINDOW = 10_000_000;

/**
 * AppendTurns: checks the turns, writes them to the session's log in the archive, publishes one event per
 * turn to the stream, and only then answers — so an acknowledged turn is in both. A retry of accepted
 * turns is counted as duplicates (the log keeps each seq once, however late the retry comes).
 */
export async function appendTurns(
  deps: ConversationDeps,
  tenant: string,
  request: AppendTurnsRequest,
  signal?: AbortSignal,
): Promise<MessageInitShape<typeof AppendTurnsResponseSchema>> {
  validateSessionId(request.sessionId);
  if (request.turns.length === 0) throw new AppError("invalid_argument", "turns is empty");
  if (request.turns.length > MAX_TURNS) throw new AppError("invalid_argument", `too many turns in one append [max=${String(MAX_TURNS)}]`);
  if (request.contextWindowTokens > MAX_CONTEXT_WINDOW)
    throw new AppError("invalid_argument", `context_window_tokens too large [max=${String(MAX_CONTEXT_WINDOW)}]`);
  if (deps.bus === undefined) throw new AppError("failed_precondition", "no event bus is configured (LOUPE_NATS_URL), so turns cannot reach the note-worker");
  const seen = new Set<number>();
  const turns: Turn[] = request.turns.map((proto) => {
    if (proto.seq === 0) throw new AppError("invalid_argument", "turn seq must be 1 or more");
    if (seen.has(proto.seq)) throw new AppError("invalid_argument", `turn seq repeated in one append [seq=${String(proto.seq)}]`);
    seen.add(proto.seq);
    return turnFromProto(proto, (turn) => countTurn(deps.counter, turn));
  });
  const encoded = turns.map((turn) => ({ seq: turn.seq, turnJson: encodeTurnJson(turn) }));
  const bytes = encoded.reduce((total, turn) => total + turn.turnJson.byteLength, request.systemPrompt.length + request.toolsJson.length);
  if (bytes > deps.maxAppendBytes)
    throw new AppError("resource_exhausted", `append too large [size_bytes=${String(bytes)}, limit_bytes=${String(deps.maxAppendBytes)}]`, {
      reason: "too_large",
    });

  const stored = await deps.archive.appendTurns(
    tenant,
    { sessionId: request.sessionId, turns: encoded, systemPrompt: request.systemPrompt, toolsJson: request.toolsJson },
    signal,
  );
  // Meta before the events, so a worker that takes an event finds the session.
  const created = new Set(stored.created);
  const prefixTokens =
    request.systemPrompt === "" && request.toolsJson === ""
      ? undefined
      : countText(deps.counter, request.systemPrompt) + countText(deps.counter, request.toolsJson);
  const meta = await deps.sessions.updateMeta(tenant, request.sessionId, (current) => ({
    source: request.source || current?.source || DEFAULT_SOURCE,
    contextWindowTokens: request.contextWindowTokens || current?.contextWindowTokens || deps.defaultContextWindowTokens,
    systemHash: stored.systemHash || current?.systemHash || "",
    toolsHash: stored.toolsHash || current?.toolsHash || "",
    prefixTokens: prefixTokens ?? current?.prefixTokens ?? 0,
    lastSeq: Math.max(current?.lastSeq ?? 0, ...turns.map((turn) => turn.seq)),
  }));
  const newTokens = turns.filter((turn) => created.has(turn.seq)).reduce((total, turn) => total + turn.tokenCount, 0);
  // Once the meta is stored, the rest is independent: the events, the tally, the rule, the base and a handover request, together.
  const [, tally, rule, base, requested] = await Promise.all([
    publishTurnEvents(
      deps.bus,
      tenant,
      turns.map((turn) => ({ sessionId: request.sessionId, source: meta.source, seq: turn.seq, tokenCount: turn.tokenCount })),
      deps.now(),
      signal,
      // The trace goes on with the events: the note-worker's work joins this request's trace.
      injectTraceHeaders(),
    ),
    deps.sessions.addTurnTokens(tenant, request.sessionId, newTokens),
    deps.rules.get(tenant, meta.source),
    deps.sessions.getBase(tenant, request.sessionId),
    deps.sessions.getHandoverRequest(tenant, request.sessionId),
  ]);
  const tokens = sessionTokens(meta, tally, base);
  const compactAtTokens = Math.floor((meta.contextWindowTokens * rule.compactAtPercent) / 100);
  const atCapacity = tokens >= compactAtTokens;
  return {
    accepted: created.size,
    duplicates: turns.length - created.size,
    sessionTokens: Math.min(tokens, 0xffffffff),
    compactionDue: atCapacity || requested !== undefined,
    compactionReason: requested !== undefined ? requestedReason(requested) : atCapacity ? "capacity" : "",
    lastSeq: meta.lastSeq,
    compactAtTokens,
  };
}
