import { AppendLog } from "@loupe/durable-file";
import { AppError } from "@loupe/errors";
import type { StoredMessage } from "./memory-types.js";

/** One stored message as a line of the log. */
export interface LogRecord {
  seq: number;
  subject: string;
  timeMs: number;
  headers: Record<string, string>;
  msgId?: string;
  /** The payload, base64. */
  data: string;
}

/**
 * The embedded bus's message log: one JSON line per message, on the one append log of
 * `@loupe/durable-file` — appends group-committed (one write and one fdatasync for every append
 * queued meanwhile), `onDurable` run in log order right after the sync, so readers only ever see
 * messages that are on disk.
 */
export class MessageLog {
  readonly #log: AppendLog;

  private constructor(log: AppendLog) {
    this.#log = log;
  }

  /**
   * Opens (creating) the log and returns its records in order. An unfinished
   * last line (a crash during an append that was never acknowledged) is cut off.
   *
   * @throws AppError `internal` when a complete line is not a record
   */
  static async open(path: string): Promise<{ log: MessageLog; records: LogRecord[] }> {
    const { log, lines } = await AppendLog.open(path);
    try {
      return { log: new MessageLog(log), records: lines.map((line, index) => parseRecord(line, path, index + 1)) };
    } catch (error) {
      await log.close();
      throw error;
    }
  }

  /** Appends one record; resolves after it is fsync'd (and `onDurable` ran). Rejects with AppError `unavailable`. */
  append(record: LogRecord, onDurable: () => void): Promise<void> {
    return this.#log.append(JSON.stringify(record), onDurable);
  }

  /** Replaces the log with `snapshot()` (taken after every earlier append is durable). */
  async rewrite(snapshot: () => LogRecord[]): Promise<void> {
    await this.#log.rewrite(() => snapshot().map((record) => JSON.stringify(record)));
  }

  /** Waits for queued operations, then closes the file. */
  close(): Promise<void> {
    return this.#log.close();
  }
}

function parseRecord(line: string, path: string, lineNumber: number): LogRecord {
  try {
    const value = JSON.parse(line) as LogRecord;
    if (Number.isSafeInteger(value.seq) && typeof value.subject === "string" && typeof value.data === "string") return value;
  } catch {
    // Reported below with the position, which the parser's message lacks.
  }
  throw new AppError("internal", `corrupt event log [path=${path}, line=${lineNumber}]`);
}

/** The log line of a stored message. */
export function toRecord(message: StoredMessage): LogRecord {
  const { seq, subject, timeMs, headers, msgId } = message;
  return { seq, subject, timeMs, headers, ...(msgId !== undefined ? { msgId } : {}), data: Buffer.from(message.data).toString("base64") };
}

/** The stored message of a log line. */
export function fromRecord(record: LogRecord): StoredMessage {
  const data = new Uint8Array(Buffer.from(record.data, "base64"));
  const headers = Object.freeze({ ...record.headers });
  const sizeBytes = data.byteLength + record.subject.length + JSON.stringify(headers).length;
  return {
    seq: record.seq,
    subject: record.subject,
    data,
    headers,
    timeMs: record.timeMs,
    sizeBytes,
    ...(record.msgId !== undefined ? { msgId: record.msgId } : {}),
  };
}
