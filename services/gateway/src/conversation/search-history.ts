import { validateSessionId } from "@loupe/archive-store/content";
import { turnAddress } from "@loupe/conversation";
import { AppError } from "@loupe/errors";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { SearchHistoryRequest, SearchHistoryResponseSchema } from "@loupe/proto";
import type { ConversationDeps } from "./conversation-deps.js";

const MAX_LIMIT = 200;

/** SearchHistory: turns whose text holds the query (phrase, else every word), each with its address and matching line. */
export async function searchHistory(
  deps: ConversationDeps,
  tenant: string,
  request: SearchHistoryRequest,
  signal?: AbortSignal,
): Promise<MessageInitShape<typeof SearchHistoryResponseSchema>> {
  validateSessionId(request.sessionId);
  if (request.query.trim() === "") throw new AppError("invalid_argument", "query is required");
  if (request.limit > MAX_LIMIT) throw new AppError("invalid_argument", `limit too large [max=${String(MAX_LIMIT)}]`);
  const found = await deps.archive.searchTurns(tenant, { sessionId: request.sessionId, query: request.query, limit: request.limit }, signal);
  return { hits: found.hits.map((hit) => ({ seq: hit.seq, address: turnAddress(hit.seq), snippet: hit.snippet })), matchCount: found.matchCount };
}
