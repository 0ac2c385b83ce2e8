import { join } from "node:path";
import { AppError } from "@loupe/errors";
import type { PublishAck, PublishOptions } from "./bus.js";
import { MemoryConsumer } from "./memory-consumer.js";
import type { ConsumerHost, ConsumerState, StoredMessage } from "./memory-types.js";
import { fromRecord, MessageLog, toRecord } from "./message-log.js";
import type { LogRecord } from "./message-log.js";
import { StateFile } from "./state-file.js";
import type { ResolvedStreamConfig } from "./stream-config.js";
import { subjectMatches } from "./subject-match.js";

/** What `state.json` of a stream holds. */
export interface SavedStream {
  version: 1;
  config: ResolvedStreamConfig;
  lastSeq: number;
  consumers: Record<string, ConsumerState>;
}

/** Compact the log once it holds this many discarded lines, and more discarded than live ones. */
const COMPACT_MIN_LINES = 1024;

/**
 * Consumer state (acks, deliveries) reaches disk at most this long (and one rewrite's time) after it
 * changes: one rewrite per this delay for a steady run of acks instead of one each. A crash loses at
 * most that much of it, and the messages whose acks it held are delivered again — at-least-once, as on
 * JetStream.
 */
export const STATE_WRITE_DELAY_MS = 100;

/**
 * One embedded stream: messages in sequence order, msgId dedupe, retention
 * limits (oldest first), its durable consumers, and — with a directory — the
 * message log and the state file that make all of it survive a restart.
 */
export class MemoryStream implements ConsumerHost {
  config: ResolvedStreamConfig;
  readonly #messages: StoredMessage[] = [];
  readonly #dedupe = new Map<string, { seq: number; timeMs: number; stored: Promise<void> }>();
  readonly #consumers = new Map<string, MemoryConsumer>();
  readonly #log: MessageLog | undefined;
  readonly #state: StateFile | undefined;
  #lastSeq = 0;
  /** The last sequence consumers can see (lastSeq runs ahead while appends are in flight). */
  #visibleSeq = 0;
  #sizeBytes = 0;
  #logLines = 0;
  #compacting = false;

  private constructor(config: ResolvedStreamConfig, log?: MessageLog, state?: StateFile) {
    this.config = config;
    this.#log = log;
    this.#state = state;
  }

  /**
   * Opens a stream: in memory when `directory` is undefined, else from (or
   * into) `directory`, where `saved` is what its state file held.
   */
  static async open(config: ResolvedStreamConfig, directory?: string, saved?: SavedStream): Promise<MemoryStream> {
    if (directory === undefined) return new MemoryStream(config);
    const state = new StateFile(join(directory, "state.json"), STATE_WRITE_DELAY_MS);
    const { log, records } = await MessageLog.open(join(directory, "messages.log"));
    const stream = new MemoryStream(config, log, state);
    stream.#restore(records, saved);
    stream.#saveState();
    await state.flush();
    return stream;
  }

  /** Stores a message (deduplicated by msgId); resolves once it is durable and visible to consumers. */
  async publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<PublishAck> {
    const now = Date.now();
    this.#trim(now);
    const { msgId } = options;
    const seen = msgId === undefined ? undefined : this.#dedupe.get(msgId);
    if (seen) {
      await seen.stored;
      return { seq: seen.seq, duplicate: true };
    }
    const seq = ++this.#lastSeq;
    const headers = Object.freeze({ ...options.headers });
    const sizeBytes = data.byteLength + subject.length + JSON.stringify(headers).length;
    const message: StoredMessage = { seq, subject, data: data.slice(), headers, timeMs: now, sizeBytes, ...(msgId ? { msgId } : {}) };
    const stored = this.#log ? this.#log.append(toRecord(message), () => this.#insert(message)) : Promise.resolve(this.#insert(message));
    if (msgId !== undefined) {
      const entry = { seq, timeMs: now, stored };
      this.#dedupe.set(msgId, entry);
      stored.catch(() => this.#dedupe.get(msgId) === entry && this.#dedupe.delete(msgId));
    }
    await stored;
    return { seq, duplicate: false };
  }

  /**
   * The durable consumer named `durable`, created when missing (from the
   * first stored message on, or with `startAt` "new" after the last one).
   *
   * @throws AppError `failed_precondition` when it exists with another filter
   */
  consumer(durable: string, filterSubject: string, ackWaitMs: number, maxDeliver: number, startAt: "all" | "new" = "all"): MemoryConsumer {
    const existing = this.#consumers.get(durable);
    if (existing && existing.filterSubject !== filterSubject) {
      throw new AppError(
        "failed_precondition",
        `durable consumer exists with another filter [stream=${this.config.name}, durable=${durable}, filter=${existing.filterSubject}]`,
      );
    }
    if (existing) {
      existing.configure(ackWaitMs, maxDeliver);
      return existing;
    }
    const deliveredSeq = startAt === "new" ? this.#visibleSeq : (this.#messages[0]?.seq ?? this.#visibleSeq + 1) - 1;
    const consumer = new MemoryConsumer(this, { filterSubject, ackWaitMs, maxDeliver, deliveredSeq, pending: {} });
    this.#consumers.set(durable, consumer);
    this.#saveState();
    return consumer;
  }

  /** Applies new subjects and limits. */
  configure(config: ResolvedStreamConfig): void {
    this.config = config;
    this.#trim(Date.now());
    this.#saveState();
  }

  /** Stops the consumers, then flushes state and closes the log. */
  async close(): Promise<void> {
    await Promise.all([...this.#consumers.values()].map((consumer) => consumer.close()));
    this.#saveState();
    await this.#state?.flush();
    await this.#log?.close();
  }

  find(seq: number): StoredMessage | undefined {
    const message = this.#messages[this.#indexAfter(seq - 1)];
    return message?.seq === seq ? message : undefined;
  }

  nextMatching(afterSeq: number, filter: string): { message: StoredMessage | undefined; scannedSeq: number } {
    for (let index = this.#indexAfter(afterSeq); index < this.#messages.length; index += 1) {
      const message = this.#messages[index];
      if (message && subjectMatches(filter, message.subject)) return { message, scannedSeq: message.seq };
    }
    return { message: undefined, scannedSeq: Math.max(afterSeq, this.#messages.at(-1)?.seq ?? 0) };
  }

  changed(): void {
    this.#saveState();
  }

  /** Index of the first message with a sequence above `seq` (binary search: sequences increase). */
  #indexAfter(seq: number): number {
    let low = 0;
    let high = this.#messages.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#messages[middle]?.seq ?? Infinity) <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #insert(message: StoredMessage): void {
    this.#messages.push(message);
    this.#visibleSeq = message.seq;
    this.#sizeBytes += message.sizeBytes;
    this.#logLines += 1;
    this.#trim(Date.now());
    for (const consumer of this.#consumers.values()) consumer.notify();
  }

  #restore(records: LogRecord[], saved: SavedStream | undefined): void {
    const now = Date.now();
    for (const record of records) {
      const message = fromRecord(record);
      this.#messages.push(message);
      this.#sizeBytes += message.sizeBytes;
      if (message.msgId !== undefined) this.#dedupe.set(message.msgId, { seq: message.seq, timeMs: message.timeMs, stored: Promise.resolve() });
    }
    this.#logLines = records.length;
    this.#lastSeq = Math.max(saved?.lastSeq ?? 0, records.at(-1)?.seq ?? 0);
    this.#visibleSeq = this.#lastSeq;
    for (const [durable, state] of Object.entries(saved?.consumers ?? {})) {
      this.#consumers.set(durable, new MemoryConsumer(this, state));
    }
    this.#trim(now);
  }

  #trim(now: number): void {
    const { maxAgeMs, maxBytes, duplicateWindowMs } = this.config;
    for (let first = this.#messages[0]; first; first = this.#messages[0]) {
      const expired = maxAgeMs > 0 && first.timeMs <= now - maxAgeMs;
      if (!expired && !(maxBytes > 0 && this.#sizeBytes > maxBytes)) break;
      this.#messages.shift();
      this.#sizeBytes -= first.sizeBytes;
    }
    // Map order is insertion order, which is time order.
    for (const [msgId, entry] of this.#dedupe) {
      if (entry.timeMs > now - duplicateWindowMs) break;
      this.#dedupe.delete(msgId);
    }
    this.#maybeCompact();
  }

  #maybeCompact(): void {
    const discarded = this.#logLines - this.#messages.length;
    if (!this.#log || !this.#state || this.#compacting || discarded < Math.max(COMPACT_MIN_LINES, this.#messages.length)) return;
    this.#compacting = true;
    // The state file must hold lastSeq before the log may lose its last line.
    this.#saveState();
    const log = this.#log;
    void this.#state
      .flush()
      .then(() =>
        log.rewrite(() => {
          this.#logLines = this.#messages.length;
          return this.#messages.map(toRecord);
        }),
      )
      .catch(() => undefined) // the log stays longer; the next trim tries again
      .finally(() => (this.#compacting = false));
  }

  #saveState(): void {
    this.#state?.write(() => {
      const consumers: Record<string, ConsumerState> = {};
      for (const [durable, consumer] of this.#consumers) consumers[durable] = consumer.state;
      const saved: SavedStream = { version: 1, config: this.config, lastSeq: this.#lastSeq, consumers };
      return JSON.stringify(saved);
    });
  }
}
