import type { ServiceHandlers } from "@loupe/grpc";
import type { ConversationService } from "@loupe/proto";
import { appendTurns } from "./append-turns.js";
import { compact } from "./compact.js";
import type { ConversationDeps } from "./conversation-deps.js";
import { endSession, getNote, putNote } from "./notes.js";
import { readHistory } from "./read-history.js";
import { searchHistory } from "./search-history.js";

/** The ConversationService handlers for one tenant. */
export function createConversationHandlers(deps: ConversationDeps, tenant: string): ServiceHandlers<typeof ConversationService> {
  return {
    appendTurns: (request, context) => appendTurns(deps, tenant, request, context.signal),
    compact: (request, context) => compact(deps, tenant, request, context.signal),
    readHistory: (request, context) => readHistory(deps, tenant, request, context.signal),
    searchHistory: (request, context) => searchHistory(deps, tenant, request, context.signal),
    getNote: (request, context) => getNote(deps, tenant, request, context.signal),
    putNote: (request) => putNote(deps, tenant, request),
    endSession: (request) => endSession(deps, tenant, request),
  };
}
