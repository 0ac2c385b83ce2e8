import { createReadStream } from "node:fs";
import { mkdir, open, truncate } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { AppError } from "@loupe/errors";
import { syncDirectory, writeFileDurably } from "./durable-file.js";
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

type Operation =
  | { kind: "append"; line: string; onDurable: () => void; resolve: () => void; reject: (error: unknown) => void }
  | { kind: "rewrite"; snapshot: () => LogRecord[]; resolve: () => void; reject: (error: unknown) => void };

/**
 * The embedded bus's append-only message log: one JSON line per message.
 * Appends are group-committed (one write and one fdatasync for every append
 * queued meanwhile); `onDurable` runs in log order right after the sync, so
 * readers only ever see messages that are on disk.
 */
export class MessageLog {
  readonly #path: string;
  #handle: FileHandle;
  #sizeBytes: number;
  #queue: Operation[] = [];
  #running: Promise<void> = Promise.resolve();
  #busy = false;

  private constructor(path: string, handle: FileHandle, sizeBytes: number) {
    this.#path = path;
    this.#handle = handle;
    this.#sizeBytes = sizeBytes;
  }

  /**
   * Opens (creating) the log and returns its records in order. An unfinished
   * last line (a crash during an append that was never acknowledged) is cut off.
   *
   * @throws AppError `internal` when a complete line is not a record
   */
  static async open(path: string): Promise<{ log: MessageLog; records: LogRecord[] }> {
    await mkdir(dirname(path), { recursive: true });
    const { records, validBytes, sizeBytes } = await readRecords(path);
    if (validBytes < sizeBytes) await truncate(path, validBytes);
    const handle = await open(path, "a");
    await syncDirectory(dirname(path));
    return { log: new MessageLog(path, handle, validBytes), records };
  }

  /** Appends one record; resolves after it is fsync'd (and `onDurable` ran). Rejects with AppError `unavailable`. */
  append(record: LogRecord, onDurable: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#enqueue({ kind: "append", line: `${JSON.stringify(record)}\n`, onDurable, resolve, reject });
    });
  }

  /** Replaces the log with `snapshot()` (taken after every earlier append is durable). */
  rewrite(snapshot: () => LogRecord[]): Promise<void> {
    return new Promise((resolve, reject) => this.#enqueue({ kind: "rewrite", snapshot, resolve, reject }));
  }

  /** Waits for queued operations, then closes the file. */
  async close(): Promise<void> {
    while (this.#busy) await this.#running;
    await this.#handle.close();
  }

  #enqueue(operation: Operation): void {
    this.#queue.push(operation);
    if (this.#busy) return;
    this.#busy = true;
    this.#running = this.#run();
  }

  async #run(): Promise<void> {
    try {
      for (let next = this.#queue[0]; next; next = this.#queue[0]) {
        if (next.kind === "rewrite") {
          this.#queue.shift();
          await this.#rewrite(next.snapshot).then(next.resolve, next.reject);
          continue;
        }
        const batch: Extract<Operation, { kind: "append" }>[] = [];
        while (this.#queue[0]?.kind === "append") batch.push(this.#queue.shift() as (typeof batch)[number]);
        await this.#write(batch);
      }
    } finally {
      // Synchronous with the empty-queue check above, so no enqueue can slip between them.
      this.#busy = false;
    }
  }

  async #write(batch: Extract<Operation, { kind: "append" }>[]): Promise<void> {
    const bytes = Buffer.from(batch.map((operation) => operation.line).join(""), "utf8");
    try {
      await this.#handle.write(bytes);
      await this.#handle.datasync();
    } catch (cause) {
      // Cut a partial write off so the next append does not follow a torn line.
      await this.#handle.truncate(this.#sizeBytes).catch(() => undefined);
      const error = new AppError("unavailable", `event log write failed [path=${this.#path}]`, { cause });
      for (const operation of batch) operation.reject(error);
      return;
    }
    this.#sizeBytes += bytes.byteLength;
    for (const operation of batch) {
      operation.onDurable();
      operation.resolve();
    }
  }

  async #rewrite(snapshot: () => LogRecord[]): Promise<void> {
    const content = snapshot()
      .map((record) => `${JSON.stringify(record)}\n`)
      .join("");
    await writeFileDurably(this.#path, content);
    await this.#handle.close();
    this.#handle = await open(this.#path, "a");
    this.#sizeBytes = Buffer.byteLength(content);
  }
}

async function readRecords(path: string): Promise<{ records: LogRecord[]; validBytes: number; sizeBytes: number }> {
  const records: LogRecord[] = [];
  let validBytes = 0;
  let sizeBytes = 0;
  let rest = Buffer.alloc(0);
  try {
    for await (const chunk of createReadStream(path)) {
      const buffer = Buffer.concat([rest, chunk as Buffer]);
      sizeBytes += (chunk as Buffer).byteLength;
      let start = 0;
      for (let end = buffer.indexOf(10, start); end !== -1; end = buffer.indexOf(10, start)) {
        records.push(parseRecord(buffer.subarray(start, end).toString("utf8"), path, records.length + 1));
        validBytes += end - start + 1;
        start = end + 1;
      }
      rest = buffer.subarray(start);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { records: [], validBytes: 0, sizeBytes: 0 };
    throw AppError.from(error);
  }
  return { records, validBytes, sizeBytes };
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
  return { seq: record.seq, subject: record.subject, data, headers, timeMs: record.timeMs, sizeBytes, ...(record.msgId !== undefined ? { msgId: record.msgId } : {}) };
}
