import type { DescService } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceHandlers } from "@loupe/grpc";
import { recordMetric, withSpan, type SpanAttributes } from "@loupe/telemetry";

/** `readTurns` → `read_turns`. */
const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The ids a request names, as span attributes (never content). */
function idsOf(input: unknown): SpanAttributes {
  const attributes: SpanAttributes = {};
  if (typeof input !== "object" || input === null || Symbol.asyncIterator in input) return attributes;
  const { resultId, sessionId } = input as { resultId?: unknown; sessionId?: unknown };
  if (typeof resultId === "string" && resultId !== "") attributes["loupe.result_id"] = resultId;
  if (typeof sessionId === "string" && sessionId !== "") attributes["loupe.session_id"] = sessionId;
  return attributes;
}

/**
 * Every archive handler in a span of its own, `archive.<method>` (`archive.put`, `archive.read`,
 * `archive.search`, `archive.append_turns`, …), child of the caller's RPC span, and its duration in
 * `loupe.archive.put.duration` (put, append_turns) or `loupe.archive.read.duration` (the rest).
 */
export function withArchiveSpans<S extends DescService>(handlers: ServiceHandlers<S>): ServiceHandlers<S> {
  const wrapped: Record<string, unknown> = {};
  for (const [method, handler] of Object.entries(handlers as Record<string, (input: unknown, context: HandlerContext) => Promise<unknown>>)) {
    const name = snakeCase(method);
    const histogram = name === "put" || name === "append_turns" ? "loupe.archive.put.duration" : "loupe.archive.read.duration";
    wrapped[method] = (input: unknown, context: HandlerContext) =>
      withSpan(`archive.${name}`, idsOf(input), async () => {
        const started = performance.now();
        let outcome = "ok";
        try {
          return await handler(input, context);
        } catch (error) {
          outcome = (error as { code?: unknown }).code === undefined ? "error" : String((error as { code?: unknown }).code);
          throw error;
        } finally {
          recordMetric(histogram, performance.now() - started, { operation: name, outcome });
        }
      });
  }
  return wrapped as ServiceHandlers<S>;
}
