/** Options for {@link Bus.publish}. */
export interface PublishOptions {
  /**
   * Idempotency key: a second publish with the same id within the stream's
   * duplicate window stores nothing and answers `duplicate: true` with the
   * first message's sequence.
   */
  msgId?: string;
  /**
   * Message headers (trace context, content type, …). Keys are ASCII tokens
   * without `:` or whitespace; values have no CR or LF. Keys starting with
   * `Nats-` are reserved for the bus (refused here, not shown on delivery).
   */
  headers?: Record<string, string>;
  /** Gives up waiting for the store's acknowledgement; the message may still have been stored. */
  signal?: AbortSignal;
}

/** What the store answered for one publish. */
export interface PublishAck {
  /** Stream sequence of the stored message (of the first one for a duplicate). */
  seq: number;
  /** True when `msgId` was seen within the duplicate window and nothing new was stored. */
  duplicate: boolean;
}

/**
 * One delivery of a stored message to a durable consumer. Settle it once with
 * `ack`, `nak` or `term`; later settlements are ignored. A message neither
 * acked, naked nor termed within the consumer's ack wait is delivered again.
 */
export interface BusMessage {
  readonly subject: string;
  readonly data: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  /** Stream sequence (1-based, increasing in publish order). */
  readonly seq: number;
  /** 1 on first delivery, counted per consumer; redeliveries after a restart continue the count. */
  readonly deliveryCount: number;
  /** Messages still waiting for this consumer when this one was delivered (JetStream only; undefined elsewhere). */
  readonly pending?: number;
  /** Done: never delivered to this consumer again. */
  ack(): void;
  /** Failed for now: delivered again after `delayMs` (default 0, at once), while deliveries remain. */
  nak(delayMs?: number): void;
  /**
   * Failed for good: never delivered to this consumer again. `reason` is
   * informational (sent to NATS servers 2.11 and later only).
   */
  term(reason?: string): void;
  /** Still working: restarts the ack wait of this delivery. */
  working(): void;
}

/** Options for {@link Bus.consume}. */
export interface ConsumeOptions {
  /**
   * Durable consumer name (letters, digits, `_`, `-`). Every `consume` with
   * the same name on the same stream shares one position: each message goes
   * to one of them.
   */
  durable: string;
  /**
   * Subjects this consumer receives, with NATS wildcards (`loupe.turn.>`).
   * Fixed when the durable is created; binding it later with another filter
   * throws `failed_precondition`.
   */
  filterSubject: string;
  /**
   * Where a durable that does not exist yet starts: `all` (default) from the first stored message, `new`
   * with messages stored after it is created. Ignored when the durable exists.
   */
  startAt?: "all" | "new";
  /** How long a delivery may stay unsettled before it is redelivered, in ms. Default 30_000. */
  ackWaitMs?: number;
  /** Deliveries per message, the first included; after the last one it is not redelivered. Default 10. */
  maxDeliver?: number;
  /** At most this many handler calls in flight for this subscription. Default 16. */
  maxMessages?: number;
  /**
   * Called once per delivery; it settles the message itself. When it throws
   * without settling, the bus naks with a backoff that grows with
   * `deliveryCount` ({@link retryDelayMs}). When it returns without settling,
   * the message is redelivered after the ack wait.
   */
  handler: (message: BusMessage) => Promise<void>;
  /** Stops the subscription (like {@link Subscription.stop}) when aborted. */
  signal?: AbortSignal;
}

/** A running `consume`. */
export interface Subscription {
  /**
   * Stops taking new messages and resolves once the handler calls in flight
   * have returned. Deliveries they left unsettled are redelivered after their
   * ack wait. Idempotent.
   */
  stop(): Promise<void>;
  /**
   * Settles when the subscription has ended: resolves after `stop()`, an
   * aborted signal or `Bus.close()`; rejects with an AppError when it ended on
   * its own (the stream or consumer was deleted, for instance).
   */
  readonly done: Promise<void>;
}

/** A stream: the subjects it stores and how long it keeps them (oldest discarded first). */
export interface StreamConfig {
  /** Stream name (letters, digits, `_`, `-`). */
  name: string;
  /** Subjects stored, with NATS wildcards; must not overlap another stream's. */
  subjects: string[];
  /** Messages older than this are discarded, in ms. */
  maxAgeMs: number;
  /** Oldest messages are discarded beyond this total size, in bytes. */
  maxBytes: number;
  /** How long a `msgId` is remembered for dedupe, in ms. Default 120_000 (at most `maxAgeMs`). */
  duplicateWindowMs?: number;
}

/**
 * The event bus port: durable streams with at-least-once delivery to durable
 * pull consumers. Adapters: {@link createJetStreamBus} (distributed) and
 * {@link createMemoryBus} (embedded). Every method throws AppError only.
 */
export interface Bus {
  /** Creates the stream, or updates its subjects and limits. Throws `failed_precondition` on overlapping subjects. */
  ensureStream(config: StreamConfig): Promise<void>;
  /**
   * Stores one message and resolves once it is durable (server-acknowledged,
   * or written and fsync'd by the embedded log). Throws `failed_precondition`
   * when no stream stores `subject`, `resource_exhausted` above the payload
   * limit, `unavailable` when the store cannot be reached, `cancelled` when
   * `signal` aborts first.
   */
  publish(subject: string, data: Uint8Array, options?: PublishOptions): Promise<PublishAck>;
  /**
   * Creates the durable pull consumer or binds to it, and starts calling the
   * handler. Throws `not_found` for an unknown stream and
   * `failed_precondition` when the durable exists with another filter.
   */
  consume(stream: string, options: ConsumeOptions): Promise<Subscription>;
  /** Stops every subscription (waiting for handlers in flight), then drains and closes. Idempotent. */
  close(): Promise<void>;
}

/** Default {@link ConsumeOptions.ackWaitMs}. */
export const DEFAULT_ACK_WAIT_MS = 30_000;
/** Default {@link ConsumeOptions.maxDeliver}. */
export const DEFAULT_MAX_DELIVER = 10;
/** Default {@link ConsumeOptions.maxMessages}. */
export const DEFAULT_MAX_MESSAGES = 16;
/** Default {@link StreamConfig.duplicateWindowMs}. */
export const DEFAULT_DUPLICATE_WINDOW_MS = 120_000;
/** Largest payload a publish accepts by default, in bytes (the NATS server's default `max_payload`). */
export const DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;
