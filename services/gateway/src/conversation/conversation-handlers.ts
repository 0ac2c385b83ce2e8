import type { ServiceHandlers } from "@loupe/grpc";
import { CompactPath, type ConversationService } from "@loupe/proto";
import { countMetric, withSpan } from "@loupe/telemetry";
import { appendTurns } from "./append-turns.js";
import { compact } from "./compact.js";
import type { ConversationDeps } from "./conversation-deps.js";
import { endSession, getNote, putNote } from "./notes.js";
import { readHistory } from "./read-history.js";
import { requestHandover } from "./request-handover.js";
import { searchHistory } from "./search-history.js";

/** The ConversationService handlers for one tenant. */
export function createConversationHandlers(deps: ConversationDeps, tenant: string): ServiceHandlers<typeof ConversationService> {
  return {
    appendTurns: (request, context) =>
      withSpan(
        "loupe.append_turns",
        { "loupe.tenant": tenant, "loupe.source": request.source, "loupe.session_id": request.sessionId, "loupe.turns": request.turns.length },
        async (span) => {
          const answer = await appendTurns(deps, tenant, request, context.signal);
          span.setAttributes({ "loupe.accepted": answer.accepted, "loupe.compaction_due": answer.compactionDue });
          countMetric("loupe.turns.appended", { source: request.source }, answer.accepted);
          return answer;
        },
      ),
    compact: (request, context) =>
      withSpan("loupe.compact", { "loupe.tenant": tenant, "loupe.session_id": request.sessionId }, async (span) => {
        const answer = await compact(deps, tenant, request, context.signal);
        const path = CompactPath[answer.path ?? CompactPath.UNSPECIFIED] ?? "UNSPECIFIED";
        span.setAttributes({ "loupe.compact_path": path, "loupe.watermark_seq": answer.watermarkSeq });
        countMetric("loupe.compactions", { path });
        deps.recorder?.compaction(tenant, {
          source: "",
          sessionId: request.sessionId,
          watermarkSeq: answer.watermarkSeq ?? 0,
          tokensBefore: 0,
          tokensAfter: answer.tokens ?? 0,
          detail: `${path}: turns through turn:${String(answer.watermarkSeq ?? 0)} replaced by note version ${String(answer.note?.version ?? 0)}`,
        });
        return answer;
      }),
    readHistory: (request, context) => readHistory(deps, tenant, request, context.signal),
    searchHistory: (request, context) => searchHistory(deps, tenant, request, context.signal),
    getNote: (request, context) => getNote(deps, tenant, request, context.signal),
    putNote: (request) => putNote(deps, tenant, request),
    endSession: (request) => endSession(deps, tenant, request),
    requestHandover: (request) => requestHandover(deps, tenant, request),
  };
}
