import type { DescMessage, DescService, MessageInitShape, MessageShape } from "@bufbuild/protobuf";

/** What every handler gets besides its request. */
export interface HandlerContext {
  /** Request metadata, first value per key, keys lowercase; binary keys left out. */
  readonly metadata: Readonly<Record<string, string>>;
  /** Aborted when the client cancels or the call's deadline passes. */
  readonly signal: AbortSignal;
  /** The call's deadline in ms since the epoch, when the client set one. */
  readonly deadlineMs: number | undefined;
  /**
   * In-process calls only: the caller's {@link CallOptions.onAccepted}, for the handler to call once what
   * is left of its work no longer needs this thread (else it is called when the handler settles).
   */
  readonly onAccepted?: () => void;
}

type Unary<I extends DescMessage, O extends DescMessage> = (request: MessageShape<I>, context: HandlerContext) => Promise<MessageInitShape<O>>;
type ClientStreaming<I extends DescMessage, O extends DescMessage> = (
  requests: AsyncIterable<MessageShape<I>>,
  context: HandlerContext,
) => Promise<MessageInitShape<O>>;
type ServerStreaming<I extends DescMessage, O extends DescMessage> = (request: MessageShape<I>, context: HandlerContext) => AsyncIterable<MessageInitShape<O>>;
type BidiStreaming<I extends DescMessage, O extends DescMessage> = (
  requests: AsyncIterable<MessageShape<I>>,
  context: HandlerContext,
) => AsyncIterable<MessageInitShape<O>>;

/** The handler type of one method, chosen by its kind. */
export type MethodHandler<M> = M extends { methodKind: "unary"; input: infer I extends DescMessage; output: infer O extends DescMessage }
  ? Unary<I, O>
  : M extends { methodKind: "client_streaming"; input: infer I extends DescMessage; output: infer O extends DescMessage }
    ? ClientStreaming<I, O>
    : M extends { methodKind: "server_streaming"; input: infer I extends DescMessage; output: infer O extends DescMessage }
      ? ServerStreaming<I, O>
      : M extends { methodKind: "bidi_streaming"; input: infer I extends DescMessage; output: infer O extends DescMessage }
        ? BidiStreaming<I, O>
        : never;

/** Handlers for every method of a service, keyed by localName. */
export type ServiceHandlers<S extends DescService> = {
  [K in keyof S["method"]]: MethodHandler<S["method"][K]>;
};

/** Per-call options of a client. */
export interface CallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Deadline relative to now. */
  timeoutMs?: number;
  /** Extra request metadata. */
  metadata?: Readonly<Record<string, string>>;
  /**
   * Called at most once, when the request is in the callee's hands and the caller's thread is free for other
   * work: over gRPC once a client-streaming call's last message is written (other kinds of call, and a call
   * whose writing failed, do not call it); in process when the handler says so (HandlerContext.onAccepted)
   * or else when the call ends. What it throws is ignored: the call's answer is the handler's.
   */
  onAccepted?: () => void;
}

type ClientUnary<I extends DescMessage, O extends DescMessage> = (request: MessageInitShape<I>, options?: CallOptions) => Promise<MessageShape<O>>;
type ClientClientStreaming<I extends DescMessage, O extends DescMessage> = (
  requests: AsyncIterable<MessageInitShape<I>> | Iterable<MessageInitShape<I>>,
  options?: CallOptions,
) => Promise<MessageShape<O>>;
type ClientServerStreaming<I extends DescMessage, O extends DescMessage> = (
  request: MessageInitShape<I>,
  options?: CallOptions,
) => AsyncIterable<MessageShape<O>>;
type ClientBidiStreaming<I extends DescMessage, O extends DescMessage> = (
  requests: AsyncIterable<MessageInitShape<I>> | Iterable<MessageInitShape<I>>,
  options?: CallOptions,
) => AsyncIterable<MessageShape<O>>;

/** The client function type of one method, chosen by its kind. */
export type ClientMethod<M> = M extends { methodKind: "unary"; input: infer I extends DescMessage; output: infer O extends DescMessage }
  ? ClientUnary<I, O>
  : M extends { methodKind: "client_streaming"; input: infer I extends DescMessage; output: infer O extends DescMessage }
    ? ClientClientStreaming<I, O>
    : M extends { methodKind: "server_streaming"; input: infer I extends DescMessage; output: infer O extends DescMessage }
      ? ClientServerStreaming<I, O>
      : M extends { methodKind: "bidi_streaming"; input: infer I extends DescMessage; output: infer O extends DescMessage }
        ? ClientBidiStreaming<I, O>
        : never;

/** A typed client of a service: one async function per method, keyed by localName. */
export type ServiceClient<S extends DescService> = {
  [K in keyof S["method"]]: ClientMethod<S["method"][K]>;
};
