/** Types shared by the embedded stream and its consumers. */

/** A message as the embedded stream keeps it. */
export interface StoredMessage {
  readonly seq: number;
  readonly subject: string;
  readonly data: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeMs: number;
  readonly msgId?: string;
  readonly sizeBytes: number;
}

/** What a consumer needs from its stream. */
export interface ConsumerHost {
  /** The message with this sequence, if the stream still has it. */
  find(seq: number): StoredMessage | undefined;
  /** The first stored message after `afterSeq` matching `filter`, and the last sequence looked at. */
  nextMatching(afterSeq: number, filter: string): { message: StoredMessage | undefined; scannedSeq: number };
  /** The consumer's persisted state changed. */
  changed(): void;
}

/** A durable consumer's persisted state: everything up to `deliveredSeq` not in `pending` is done. */
export interface ConsumerState {
  filterSubject: string;
  ackWaitMs: number;
  maxDeliver: number;
  deliveredSeq: number;
  /** Delivered, not yet settled: sequence → deliveries so far. */
  pending: Record<string, number>;
}
