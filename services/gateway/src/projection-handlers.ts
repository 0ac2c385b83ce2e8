import type { HandlerContext, ServiceHandlers } from "@loupe/grpc";
import type { ProjectionService } from "@loupe/proto";
import { recordSpanEvent, withSpan } from "@loupe/telemetry";
import type { Logger } from "@loupe/runtime";
import { deleteResults } from "./delete-results.js";
import { project, type ProjectDeps } from "./project.js";
import { cutHistoryFor } from "./cut-history/cut-history-handler.js";
import { createHistoryProjector, type HistoryProjector } from "./cut-history/history-projector.js";
import { recover, type RecoverDeps } from "./recover.js";

/** The tenant until authentication exists (DESIGN: Identity). */
export const LOCAL_TENANT = "local";

/** The context for running a gRPC handler in process (HTTP, MCP): no metadata (the local tenant), the caller's cancellation. */
export function localContext(signal: AbortSignal | undefined): HandlerContext {
  return { metadata: {}, signal: signal ?? new AbortController().signal, deadlineMs: undefined };
}

/** Counters the gateway keeps (exposed on its metrics later). */
export interface GatewayCounters {
  failOpen: number;
}

/**
 * ProjectionService handlers, and the history projector (mode "project" of the history cut) that
 * CutHistory and the vendor proxy share: one Project path, counted and logged the same way.
 */
export function createProjectionHandlers(
  deps: Omit<ProjectDeps, "onArchiveFailure"> & RecoverDeps,
  logger: Logger,
  counters: GatewayCounters,
): { handlers: ServiceHandlers<typeof ProjectionService>; projectText: HistoryProjector } {
  const onArchiveFailure = (error: unknown): void => {
    counters.failOpen++;
    recordSpanEvent("loupe.archive.put_failed", { error: error instanceof Error ? error.message : String(error) });
    logger.warn("archive put failed; answering fail-open", { error });
  };
  const projectText = createHistoryProjector((request, rule) => project(request, LOCAL_TENANT, { ...deps, onArchiveFailure }, rule));
  const handlers: ServiceHandlers<typeof ProjectionService> = {
    project: (request) =>
      withSpan("loupe.project", { "loupe.tool_name": request.result?.toolName ?? "", "loupe.budget_tokens": request.budgetTokens }, async (span) => {
        const response = await project(request, LOCAL_TENANT, { ...deps, onArchiveFailure });
        span.setAttributes({
          "loupe.archived": response.archived ?? false,
          "loupe.original_tokens": response.usage?.originalTokens ?? 0,
          "loupe.projected_tokens": response.usage?.projectedTokens ?? 0,
          "loupe.saved_tokens": response.usage?.savedTokens ?? 0,
        });
        return response;
      }),
    recover: (request, context) =>
      withSpan("loupe.recover", { "loupe.result_id": request.resultId }, (span) =>
        recover(request, LOCAL_TENANT, deps, context.signal).then((response) => {
          span.setAttribute("loupe.has_more", (response.nextCursor ?? "") !== "");
          return response;
        }),
      ),
    deleteResults: (request, context) => deleteResults(request, LOCAL_TENANT, deps.archive, context.signal, deps.sessions),
    cutHistory: (request) =>
      withSpan("loupe.cut_history", { "loupe.source": request.source }, async (span) => {
        const answer = await cutHistoryFor(request, LOCAL_TENANT, deps.sourceRules, deps.state, deps.counter, projectText);
        span.setAttributes({ "loupe.cut_results": answer.cutResults ?? 0, "loupe.saved_tokens": answer.savedTokens ?? 0 });
        return answer;
      }),
  };
  return { handlers, projectText };
}
