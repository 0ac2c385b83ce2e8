import { isSpanContextValid, trace } from "@opentelemetry/api";

/** Severity of a log line. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Structured fields of a log line; errors are rendered with name, message and code. */
export type LogFields = Record<string, unknown>;

/** A JSON-lines logger. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}

/** Options for {@link createLogger}. */
export interface LoggerOptions {
  service: string;
  level?: LogLevel;
  /** Where lines go; default stderr. */
  write?: (line: string) => void;
  /** Clock for timestamps (ms since the epoch); default Date.now. */
  now?: () => number;
}

/** How many causes of an error a line names at most (a cycle of causes ends there too). */
const MAX_CAUSES = 4;

function render(value: unknown, depth = 0): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    // The cause says why (a thread that failed to start: the module it could not load).
    const cause = depth < MAX_CAUSES && value.cause !== undefined ? { cause: render(value.cause, depth + 1) } : {};
    return { name: value.name, message: value.message, ...(code === undefined ? {} : { code }), ...cause };
  }
  return value;
}

/**
 * Creates a logger writing one JSON object per line: time, level, service,
 * message, `trace_id` and `span_id` when a span is active, and fields. Lines below `level` (default info) are dropped.
 */
export function createLogger(options: LoggerOptions, bound: LogFields = {}): Logger {
  const threshold = ORDER[options.level ?? "info"];
  const write = options.write ?? ((line: string) => process.stderr.write(line + "\n"));
  const now = options.now ?? Date.now;
  const log = (level: LogLevel, message: string, fields: LogFields = {}): void => {
    if (ORDER[level] < threshold) return;
    const entries = Object.entries({ ...bound, ...fields }).map(([key, value]) => [key, render(value)]);
    // The line joins its trace: the active span's ids, when one is recording.
    const span = trace.getActiveSpan()?.spanContext();
    const ids = span !== undefined && isSpanContextValid(span) ? { trace_id: span.traceId, span_id: span.spanId } : {};
    write(JSON.stringify({ time: new Date(now()).toISOString(), level, service: options.service, message, ...ids, ...Object.fromEntries(entries) }));
  };
  return {
    debug: (message, fields) => log("debug", message, fields),
    info: (message, fields) => log("info", message, fields),
    warn: (message, fields) => log("warn", message, fields),
    error: (message, fields) => log("error", message, fields),
    child: (fields) => createLogger(options, { ...bound, ...fields }),
  };
}
