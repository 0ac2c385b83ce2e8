import type { DescMessage, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { createGrpcClient, DEFAULT_MAX_RESULT_BYTES, messageLimitOptions, RECONNECT_OPTIONS } from "@loupe/grpc";
import {
  type CutHistoryRequestSchema,
  type CutHistoryResponseSchema,
  type DeleteResultsRequestSchema,
  type DeleteResultsResponseSchema,
  type GetSourceLimitRequestSchema,
  type GetSourceLimitResponseSchema,
  type ListViewsRequestSchema,
  type ListViewsResponseSchema,
  type ProjectRequestSchema,
  type ProjectResponseSchema,
  type RecoverRequestSchema,
  type RecoverResponseSchema,
  type SetSourceLimitRequestSchema,
  type SetSourceLimitResponseSchema,
  ConversationService,
  ProjectionService,
  RulesService,
  LedgerService,
  type ListEntriesRequestSchema,
  type ListEntriesResponseSchema,
} from "@loupe/proto";
import { callWithRetries, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRIES, DEFAULT_RETRY_DELAY_MS, type RetryPolicy } from "./call-with-retries.js";
import type { ConversationCalls } from "./conversation-calls.js";
import type { LoupeCall, LoupeCallOptions } from "./loupe-call.js";
import { recoverAll, type RecoverInput } from "./recover-all.js";
import { channelCredentials, DEFAULT_ADDRESS, DEFAULT_TIMEOUT_MS, type LoupeClientOptions } from "./connection-options.js";

export type { LoupeCall, LoupeCallOptions } from "./loupe-call.js";

/**
 * The Loupe SDK client. Every call fails with an AppError (`unavailable`,
 * `deadline_exceeded`, `invalid_argument`, `not_found`, …).
 *
 * Retries: `project`, `recover`, `recoverAll`, `getSourceLimit` and `listViews` are retried on
 * `unavailable` (Project is deterministic and content-addressed, the others
 * read). `cutHistory`, `deleteResults` and `setSourceLimit` are attempted once:
 * an `unavailable` answer does not prove they had no effect.
 */
export interface LoupeClient extends ConversationCalls {
  /** Saves a tool result and returns its first view (retried). */
  project: LoupeCall<typeof ProjectRequestSchema, typeof ProjectResponseSchema>;
  /** Reads an omitted range of, or searches, a saved result: one page (retried). */
  recover: LoupeCall<typeof RecoverRequestSchema, typeof RecoverResponseSchema>;
  /**
   * Sends a continuation_json as it is (or a RecoverRequest init) and follows
   * `next_cursor` to the end; returns the pages' text joined (for line and byte
   * ranges, the original's exact bytes). Each page is a call with its own deadline.
   */
  recoverAll(input: RecoverInput, options?: LoupeCallOptions): Promise<string>;
  /** Cuts eligible tool results in a vendor request history (not retried). */
  cutHistory: LoupeCall<typeof CutHistoryRequestSchema, typeof CutHistoryResponseSchema>;
  /** Deletes saved results: one, a session's, or the tenant's (not retried). */
  deleteResults: LoupeCall<typeof DeleteResultsRequestSchema, typeof DeleteResultsResponseSchema>;
  /** Updates a source's rule; fields left out keep their value (not retried). */
  setSourceLimit: LoupeCall<typeof SetSourceLimitRequestSchema, typeof SetSourceLimitResponseSchema>;
  /** Reads a source's rule (retried). */
  getSourceLimit: LoupeCall<typeof GetSourceLimitRequestSchema, typeof GetSourceLimitResponseSchema>;
  /** Lists the field views that apply (the configuration's, then a named source's rule's) (retried). */
  listViews: LoupeCall<typeof ListViewsRequestSchema, typeof ListViewsResponseSchema>;
  /** Lists what Loupe did to the tenant's context, newest first (LedgerService.ListEntries; retried). */
  listLedgerEntries: LoupeCall<typeof ListEntriesRequestSchema, typeof ListEntriesResponseSchema>;
  /** Closes the connection; calls after it fail. */
  close(): void;
}

// Reconnect quickly after a refused connection, so retries meet a server that has just come up.

/**
 * Creates a {@link LoupeClient} on one gRPC channel to `options.address`
 * (plaintext unless `options.tls`). The channel
 * connects lazily: creating a client never fails and never blocks.
 */
export function createLoupeClient(options: LoupeClientOptions = {}): LoupeClient {
  const address = options.address ?? DEFAULT_ADDRESS;
  const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const channel = new grpc.Client(address, channelCredentials(options.tls), { ...messageLimitOptions(maxResultBytes), ...RECONNECT_OPTIONS });
  const metadata = { ...options.metadata, ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }) };
  const grpcOptions = { maxResultBytes, channel, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
  const projection = createGrpcClient(ProjectionService, address, grpcOptions);
  const rules = createGrpcClient(RulesService, address, grpcOptions);
  const conversation = createGrpcClient(ConversationService, address, grpcOptions);
  const ledger = createGrpcClient(LedgerService, address, grpcOptions);
  const policy: RetryPolicy = {
    retries: options.retries ?? DEFAULT_RETRIES,
    retryDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
  };
  const wrap =
    <I extends DescMessage, O extends DescMessage>(
      method: (request: MessageInitShape<I>, callOptions: { timeoutMs: number; signal?: AbortSignal }) => Promise<MessageShape<O>>,
      retry: boolean,
    ): LoupeCall<I, O> =>
    (request, callOptions = {}) => {
      const signal = callOptions.signal;
      return callWithRetries((timeoutMs) => method(request, signal ? { timeoutMs, signal } : { timeoutMs }), {
        policy,
        timeoutMs: callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        retry,
        signal,
      });
    };
  const recover = wrap<typeof RecoverRequestSchema, typeof RecoverResponseSchema>(projection.recover, true);
  return {
    project: wrap(projection.project, true),
    recover,
    recoverAll: (input, callOptions) => recoverAll((request) => recover(request, callOptions), input),
    cutHistory: wrap(projection.cutHistory, false),
    deleteResults: wrap(projection.deleteResults, false),
    setSourceLimit: wrap(rules.setSourceLimit, false),
    getSourceLimit: wrap(rules.getSourceLimit, true),
    listViews: wrap(rules.listViews, true),
    listLedgerEntries: wrap(ledger.listEntries, true),
    appendTurns: wrap(conversation.appendTurns, true),
    compact: wrap(conversation.compact, true),
    readHistory: wrap(conversation.readHistory, true),
    searchHistory: wrap(conversation.searchHistory, true),
    getNote: wrap(conversation.getNote, true),
    putNote: wrap(conversation.putNote, false),
    endSession: wrap(conversation.endSession, false),
    requestHandover: wrap(conversation.requestHandover, true),
    close: () => channel.close(),
  };
}
