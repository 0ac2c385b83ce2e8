import type { HandlerContext, ServiceHandlers } from "@loupe/grpc";
import { ToolKind, type ProjectionService } from "@loupe/proto";
import { countMetric, recordSpanEvent, withSpan } from "@loupe/telemetry";
import type { Logger } from "@loupe/runtime";
import { deleteResults } from "./delete-results.js";
import { project, type ProjectDeps } from "./project/project.js";
import { cutHistoryFor, type CutObserver } from "./cut-history/cut-history-handler.js";
import { observeCuts } from "./cut-history/observe-cuts.js";
import { createHistoryProjector, type HistoryProjector } from "./cut-history/history-projector.js";
import { archiveImageCutDeps } from "./cut-history/images/archive-image-saver.js";
import type { ImageCutDeps } from "./cut-history/images/cut-images.js";
import type { LedgerRecorder } from "./ledger/record-ledger.js";
import { recover, type RecoverDeps } from "./recover.js";
import { resultKindFromToolKind } from "./result-kind.js";

/**
 * The context for running a gRPC handler in process (HTTP, MCP): the caller's credentials (its
 * `authorization` and `x-loupe-token` headers, as gRPC metadata would carry them) and cancellation.
 */
export function localContext(signal: AbortSignal | undefined, headers: Readonly<Record<string, string | string[] | undefined>> = {}): HandlerContext {
  const metadata: Record<string, string> = {};
  for (const key of ["authorization", "x-loupe-token"]) {
    const value = headers[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) metadata[key] = first;
  }
  return { metadata, signal: signal ?? new AbortController().signal, deadlineMs: undefined };
}

/** How a Recover asked: a named view, a pattern, a range, or the next page of a cursor. */
function recoveryKind(request: { view?: string; pattern?: string; cursor?: string }): string {
  if ((request.view ?? "") !== "") return "view";
  if ((request.pattern ?? "") !== "") return "pattern";
  if ((request.cursor ?? "") !== "") return "cursor";
  return "range";
}

/** The text of a view's parts (media and JSON parts aside). */
const textOfParts = (parts: readonly { content?: { case?: string | undefined; value?: unknown } | undefined }[] | undefined): string =>
  (parts ?? []).map((part) => (part.content?.case === "text" && typeof part.content.value === "string" ? part.content.value : "")).join("");

/** One line on what a Recover read: the range, the pattern and its matches, or the view. */
function recoveryDetail(
  request: { view?: string | undefined; pattern?: string | undefined },
  response: { startLine?: number | undefined; endLine?: number | undefined; matchCount?: number | undefined; totalLines?: number | undefined },
): string {
  if ((request.view ?? "") !== "") return `view ${request.view ?? ""}`;
  if ((request.pattern ?? "") !== "") return `pattern ${JSON.stringify(request.pattern)}: ${String(response.matchCount ?? 0)} match(es)`;
  if (response.startLine !== undefined)
    return `lines ${String(response.startLine)}–${String(response.endLine ?? response.startLine)} of ${String(response.totalLines ?? 0)}`;
  return "bytes or items";
}

/** Counters the gateway keeps (also on its metrics). */
export interface GatewayCounters {
  failOpen: number;
  /** Calls refused by a tenant's rate limit. */
  rateLimited: number;
}

/**
 * ProjectionService handlers, and the history projector (mode "project" of the history cut) and
 * image cut that CutHistory and the vendor proxy share: one Project path, counted and logged the same way.
 */
export function createProjectionHandlers(
  deps: Omit<ProjectDeps, "onArchiveFailure"> & RecoverDeps & { recorder?: LedgerRecorder },
  logger: Logger,
  counters: GatewayCounters,
): {
  handlersFor: (tenant: string) => ServiceHandlers<typeof ProjectionService>;
  projectText: HistoryProjector;
  imageCuts: ImageCutDeps;
  observeCut: CutObserver;
} {
  const onArchiveFailure = (error: unknown): void => {
    counters.failOpen++;
    countMetric("loupe.fail_open");
    recordSpanEvent("loupe.archive.put_failed", { error: error instanceof Error ? error.message : String(error) });
    logger.warn("archive put failed; answering fail-open", { error });
  };
  const projectText = createHistoryProjector((request, rule, tenant) => project(request, tenant, { ...deps, onArchiveFailure }, rule));
  const imageCuts = archiveImageCutDeps(deps);
  const observeCut = observeCuts(deps.recorder);
  const handlersFor = (tenant: string): ServiceHandlers<typeof ProjectionService> => ({
    project: (request, context) =>
      withSpan(
        "loupe.project",
        {
          "loupe.tool_name": request.result?.toolName ?? "",
          "loupe.budget_tokens": request.budgetTokens,
          "loupe.tenant": tenant,
          "loupe.source": request.source,
          "loupe.session_id": request.sessionId,
        },
        async (span) => {
          const response = await project(request, tenant, { ...deps, onArchiveFailure }, undefined, context.signal);
          const kind = resultKindFromToolKind(response.kind ?? ToolKind.UNSPECIFIED) ?? "generic";
          const archived = response.archived ?? false;
          const usage = {
            original: response.usage?.originalTokens ?? 0,
            projected: response.usage?.projectedTokens ?? 0,
            saved: response.usage?.savedTokens ?? 0,
          };
          span.setAttributes({
            "loupe.kind": kind,
            "loupe.result_id": response.resultId,
            "loupe.archived": archived,
            "loupe.fail_open": !archived,
            "loupe.original_tokens": usage.original,
            "loupe.projected_tokens": usage.projected,
            "loupe.saved_tokens": usage.saved,
          });
          const attributes = { kind, source: request.source };
          countMetric("loupe.projections", { ...attributes, archived });
          countMetric("loupe.projection.original_tokens", attributes, usage.original);
          countMetric("loupe.projection.saved_tokens", attributes, usage.saved);
          return response;
        },
      ),
    recover: (request, context) =>
      withSpan("loupe.recover", { "loupe.result_id": request.resultId, "loupe.tenant": tenant }, (span) =>
        recover(request, tenant, deps, context.signal).then((response) => {
          span.setAttribute("loupe.has_more", (response.nextCursor ?? "") !== "");
          countMetric("loupe.recoveries", { by: recoveryKind(request) });
          deps.recorder?.recovery(tenant, {
            source: "",
            sessionId: "",
            resultId: response.resultId || request.resultId,
            tokens: deps.counter.count(textOfParts(response.parts)),
            detail: recoveryDetail(request, response),
          });
          return response;
        }),
      ),
    deleteResults: async (request, context) => {
      const answer = await deleteResults(request, tenant, deps.archive, context.signal, deps.sessions);
      const target = request.target;
      deps.recorder?.deletion(tenant, {
        sessionId: target.case === "sessionId" ? target.value : "",
        resultId: target.case === "resultId" ? target.value : "",
        detail: `${target.case === "tenant" ? "the whole tenant" : target.case === "sessionId" ? "a session's results" : "one result"}: ${String(answer.resultsDeleted ?? 0)} result(s) deleted`,
      });
      return answer;
    },
    cutHistory: (request) =>
      withSpan("loupe.cut_history", { "loupe.source": request.source, "loupe.tenant": tenant }, async (span) => {
        const answer = await cutHistoryFor(request, tenant, deps.sourceRules, deps.state, deps.counter, projectText, imageCuts, observeCut);
        span.setAttributes({
          "loupe.cut_results": answer.cutResults ?? 0,
          "loupe.saved_tokens": answer.savedTokens ?? 0,
          "loupe.replaced_images": answer.replacedImages ?? 0,
        });
        return answer;
      }),
  });
  return { handlersFor, projectText, imageCuts, observeCut };
}
