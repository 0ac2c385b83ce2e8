import type { MessageInitShape } from "@bufbuild/protobuf";
import type {
  PutNoteRequestSchema,
  PutNoteResponse,
  RequestHandoverRequestSchema,
  RequestHandoverResponse,
  GetSourceLimitRequestSchema,
  GetSourceLimitResponse,
  ListEntriesRequestSchema,
  ListEntriesResponse,
  ReadHistoryRequestSchema,
  ReadHistoryResponse,
  RecoverRequestSchema,
  RecoverResponse,
  SearchHistoryRequestSchema,
  SearchHistoryResponse,
  SetSourceLimitRequestSchema,
  SetSourceLimitResponse,
} from "@loupe/proto";
import type { LoupeClient } from "../loupe-client.js";

/** Per-call options of a {@link LoupeMcpApi} method. */
export interface LoupeMcpCallOptions {
  /** Aborted when the MCP client cancels the tool call. */
  signal?: AbortSignal;
}

/** One call of a {@link LoupeMcpApi}: a proto request init in, the proto response out. */
export type LoupeMcpCall<I, O> = (request: I, options?: LoupeMcpCallOptions) => Promise<O>;

/**
 * The Loupe calls the MCP server makes. `loupe mcp` backs it with the gRPC
 * SDK client ({@link loupeMcpApiFromClient}); the gateway's `/mcp` backs it
 * with its in-process handlers. Every method fails with an AppError.
 */
export interface LoupeMcpApi {
  /** ProjectionService.Recover by range, JSON pointer or cursor. */
  recover: LoupeMcpCall<MessageInitShape<typeof RecoverRequestSchema>, RecoverResponse>;
  /** ProjectionService.Recover with a pattern (or a pattern cursor). */
  searchResult: LoupeMcpCall<MessageInitShape<typeof RecoverRequestSchema>, RecoverResponse>;
  /** ConversationService.ReadHistory. */
  readHistory: LoupeMcpCall<MessageInitShape<typeof ReadHistoryRequestSchema>, ReadHistoryResponse>;
  /** ConversationService.SearchHistory. */
  searchHistory: LoupeMcpCall<MessageInitShape<typeof SearchHistoryRequestSchema>, SearchHistoryResponse>;
  /** ConversationService.PutNote: a note the model wrote itself. */
  putNote: LoupeMcpCall<MessageInitShape<typeof PutNoteRequestSchema>, PutNoteResponse>;
  /** ConversationService.RequestHandover. */
  requestHandover: LoupeMcpCall<MessageInitShape<typeof RequestHandoverRequestSchema>, RequestHandoverResponse>;
  /** RulesService.SetSourceLimit (a partial update). */
  setSourceLimit: LoupeMcpCall<MessageInitShape<typeof SetSourceLimitRequestSchema>, SetSourceLimitResponse>;
  /** RulesService.GetSourceLimit. */
  getSourceLimit: LoupeMcpCall<MessageInitShape<typeof GetSourceLimitRequestSchema>, GetSourceLimitResponse>;
  /** LedgerService.ListEntries: what Loupe did to the context (absent: no `ledger` tool). */
  listLedgerEntries?: LoupeMcpCall<MessageInitShape<typeof ListEntriesRequestSchema>, ListEntriesResponse>;
}

/** A {@link LoupeMcpApi} over a gRPC {@link LoupeClient} (its deadlines and retries apply). */
export function loupeMcpApiFromClient(client: LoupeClient): LoupeMcpApi {
  return {
    recover: (request, options) => client.recover(request, options),
    searchResult: (request, options) => client.recover(request, options),
    readHistory: (request, options) => client.readHistory(request, options),
    searchHistory: (request, options) => client.searchHistory(request, options),
    putNote: (request, options) => client.putNote(request, options),
    requestHandover: (request, options) => client.requestHandover(request, options),
    setSourceLimit: (request, options) => client.setSourceLimit(request, options),
    getSourceLimit: (request, options) => client.getSourceLimit(request, options),
    listLedgerEntries: (request, options) => client.listLedgerEntries(request, options),
  };
}
