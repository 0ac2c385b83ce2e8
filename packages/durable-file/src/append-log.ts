import { constants, createReadStream } from "node:fs";
import { mkdir, open, stat, truncate } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { AppError } from "@loupe/errors";
import { syncDirectory, writeAll, writeFileDurably } from "./write-file-durably.js";

type Operation =
  | { kind: "append"; line: string; onDurable: (() => void) | undefined; resolve: () => void; reject: (error: unknown) => void }
  | { kind: "rewrite"; content: () => Iterable<string>; resolve: (sizeBytes: number) => void; reject: (error: unknown) => void };

/** The log's file grows ahead of its lines by at least this many zero bytes (see AppendLog). */
export const PREALLOCATE_BYTES = 1024 * 1024;
const ZEROS = new Uint8Array(PREALLOCATE_BYTES);
const NUL = 0;
// Read and write, created when missing; writes go at explicit positions (the lines' end), never "append".
const READ_WRITE = constants.O_RDWR | constants.O_CREAT;

/**
 * The one append-only journal of Loupe's files (the embedded bus's message log, the embedded state
 * store's journal, the file archive's journal): one line per entry, group-committed — every append
 * queued while a write is in flight goes out in the next write and one fdatasync — and each append
 * resolves only once it is on disk, with `onDurable` run in log order right after the sync. A failed
 * write is cut off the file and rejects its batch (AppError `unavailable`); later appends may succeed.
 * `rewrite` replaces the whole log atomically (compaction), in order with the appends.
 *
 * The file is kept PREALLOCATE_BYTES or more longer than its lines, in zeros written (and made durable)
 * ahead of them: lines then overwrite blocks the file already has, and their fdatasync writes only
 * data — no change of the file's size, so no commit of the file system's journal (on ext4 0.5–0.96×
 * the p50 of an append's sync: test/bench/append-log.bench.ts). The lines end at the first zero byte
 * (a line never holds one: they are JSON); whatever follows it was never acknowledged. A clean close
 * cuts the zeros off.
 */
export class AppendLog {
  readonly #path: string;
  #handle: FileHandle;
  #sizeBytes: number;
  /** The file's size: the lines, then zeros up to here. */
  #allocatedBytes: number;
  #queue: Operation[] = [];
  #running: Promise<void> = Promise.resolve();
  #busy = false;

  private constructor(path: string, handle: FileHandle, sizeBytes: number) {
    this.#path = path;
    this.#handle = handle;
    this.#sizeBytes = sizeBytes;
    this.#allocatedBytes = sizeBytes;
  }

  /**
   * Opens (creating, with its folder) the log at `path` and returns its complete lines in order. An
   * unfinished last line — a crash during an append that was never acknowledged — is cut off, with
   * the zeros ahead of the lines and anything after the first of them.
   */
  static async open(path: string): Promise<{ log: AppendLog; lines: string[] }> {
    await mkdir(dirname(path), { recursive: true });
    const { lines, validBytes, sizeBytes } = await readLines(path);
    if (validBytes < sizeBytes) await truncate(path, validBytes);
    const handle = await open(path, READ_WRITE);
    await syncDirectory(dirname(path));
    return { log: new AppendLog(path, handle, validBytes), lines };
  }

  /** The bytes on disk (complete lines only). */
  get sizeBytes(): number {
    return this.#sizeBytes;
  }

  /**
   * Appends one line (without its newline, and holding no zero byte: JSON never does); resolves once it
   * is fsynced and `onDurable` ran. A line with a newline or a zero byte is refused (AppError `internal`).
   */
  append(line: string, onDurable?: () => void): Promise<void> {
    if (line.includes("\n") || line.includes("\0")) {
      return Promise.reject(new AppError("internal", `a log line holds a newline or a zero byte [path=${this.#path}]`));
    }
    return new Promise((resolve, reject) => this.#enqueue({ kind: "append", line: `${line}\n`, onDurable, resolve, reject }));
  }

  /** Replaces the log with the lines `content()` gives (taken once every earlier append is on disk); resolves with the new size. */
  rewrite(content: () => Iterable<string>): Promise<number> {
    return new Promise((resolve, reject) => this.#enqueue({ kind: "rewrite", content, resolve, reject }));
  }

  /** Waits for queued operations, then cuts the zeros after the lines off and closes the file. */
  async close(): Promise<void> {
    while (this.#busy) await this.#running;
    try {
      if (this.#allocatedBytes > this.#sizeBytes) await this.#handle.truncate(this.#sizeBytes);
    } finally {
      await this.#handle.close();
    }
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
          await this.#rewrite(next.content).then(next.resolve, next.reject);
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
      const end = this.#sizeBytes + bytes.byteLength;
      // Past the zeros: the lines and fresh zeros after them go out together, and this one sync also
      // makes the new size durable (the lines' end must never sit in the last zeros: one always follows).
      if (end >= this.#allocatedBytes) {
        await writeAll(this.#handle, ZEROS, end);
        this.#allocatedBytes = end + ZEROS.byteLength;
      }
      await writeAll(this.#handle, bytes, this.#sizeBytes);
      await this.#handle.datasync();
      this.#sizeBytes = end;
    } catch (cause) {
      // Cut a partial write off so the next append does not follow a torn line.
      await this.#handle.truncate(this.#sizeBytes).catch(() => undefined);
      this.#allocatedBytes = this.#sizeBytes;
      const error = new AppError("unavailable", `journal write failed [path=${this.#path}]`, { cause });
      for (const operation of batch) operation.reject(error);
      return;
    }
    for (const operation of batch) {
      operation.onDurable?.();
      operation.resolve();
    }
  }

  async #rewrite(content: () => Iterable<string>): Promise<number> {
    const lines = content();
    const sizeBytes = await writeFileDurably(
      this.#path,
      (function* () {
        for (const line of lines) yield `${line}\n`;
      })(),
    );
    await this.#handle.close();
    this.#handle = await open(this.#path, READ_WRITE);
    this.#sizeBytes = sizeBytes;
    this.#allocatedBytes = sizeBytes;
    return sizeBytes;
  }
}

async function readLines(path: string): Promise<{ lines: string[]; validBytes: number; sizeBytes: number }> {
  const lines: string[] = [];
  let validBytes = 0;
  let sizeBytes = 0;
  let rest = Buffer.alloc(0);
  try {
    for await (const chunk of createReadStream(path)) {
      const buffer = Buffer.concat([rest, chunk as Buffer]);
      sizeBytes += (chunk as Buffer).byteLength;
      let start = 0;
      // The lines end at the first zero byte: the log's zeros ahead of its lines, or a write never acknowledged.
      const zero = buffer.indexOf(NUL, start);
      const stop = zero === -1 ? buffer.byteLength : zero;
      for (let end = buffer.indexOf(10, start); end !== -1 && end < stop; end = buffer.indexOf(10, start)) {
        lines.push(buffer.subarray(start, end).toString("utf8"));
        validBytes += end - start + 1;
        start = end + 1;
      }
      if (zero !== -1) return { lines, validBytes, sizeBytes: await sizeOf(path) };
      rest = buffer.subarray(start);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { lines: [], validBytes: 0, sizeBytes: 0 };
    throw new AppError("unavailable", `journal unreadable [path=${path}]`, { cause: error });
  }
  return { lines, validBytes, sizeBytes };
}

async function sizeOf(path: string): Promise<number> {
  return (await stat(path)).size;
}
