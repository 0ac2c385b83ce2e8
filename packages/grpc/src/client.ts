import type { DescMethod, DescService } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import type { CallOptions, ServiceClient } from "./handler-types.js";
import { tellAccepted } from "./tell-accepted.js";
import { messageLimitOptions } from "./message-limits.js";
import { deserializerFor, methodPath, serializerFor } from "./service-definition.js";
import { startClientCall, statusCodeOf, type TracedCall } from "./rpc-tracing.js";
import { errorFromGrpcStatus } from "./status.js";

/** Options for {@link createGrpcClient}. */
export interface GrpcClientOptions {
  /** Largest result the client sends or accepts; message limits are raised to match. */
  maxResultBytes: number;
  /** Metadata sent with every call (per-call metadata wins). */
  metadata?: Readonly<Record<string, string>>;
  /** A channel to share between several service clients. */
  channel?: grpc.Client;
  /** Channel credentials (default plaintext). */
  credentials?: grpc.ChannelCredentials;
}

/** A typed client plus the underlying channel. */
export type GrpcClient<S extends DescService> = ServiceClient<S> & {
  /** Closes the channel (unless it was passed in). */
  close(): void;
  readonly channel: grpc.Client;
};

function callArguments(
  defaults: Readonly<Record<string, string>> | undefined,
  options: CallOptions | undefined,
): { metadata: grpc.Metadata; callOptions: grpc.CallOptions } {
  const metadata = new grpc.Metadata();
  for (const [key, value] of Object.entries({ ...defaults, ...options?.metadata })) metadata.set(key, value);
  const callOptions: grpc.CallOptions = {};
  if (options?.timeoutMs !== undefined) callOptions.deadline = Date.now() + options.timeoutMs;
  return { metadata, callOptions };
}

function bindSignal(call: grpc.Call, signal: AbortSignal | undefined): void {
  if (!signal) return;
  if (signal.aborted) call.cancel();
  else signal.addEventListener("abort", () => call.cancel(), { once: true });
}

async function writeAll(call: grpc.ClientWritableStream<object>, requests: AsyncIterable<object> | Iterable<object>): Promise<void> {
  try {
    for await (const request of requests) {
      if (!call.write(request)) await new Promise((resolve) => call.once("drain", resolve));
    }
    call.end();
  } catch (error) {
    // A failing request source must not leave the call half-open on the server.
    call.cancel();
    throw error;
  }
}

async function* readAll(stream: grpc.ClientReadableStream<object>, traced: TracedCall): AsyncIterable<object> {
  try {
    for await (const message of stream) yield message as object;
    traced.finish(grpc.status.OK);
  } catch (error) {
    traced.finish(statusCodeOf(error), (error as Error).message);
    throw errorFromGrpcStatus(error as grpc.ServiceError);
  } finally {
    // A reader that stopped early: the call is over for this client.
    traced.finish(grpc.status.CANCELLED);
  }
}

/** Settles a unary or client-streaming call's promise, ending its span with the call's status. */
function settle(traced: TracedCall, resolve: (value: unknown) => void, reject: (error: unknown) => void) {
  return (error: grpc.ServiceError | null, response?: object): void => {
    if (error) {
      traced.finish(error.code, error.details);
      reject(errorFromGrpcStatus(error));
    } else {
      traced.finish(grpc.status.OK);
      resolve(response);
    }
  };
}

function createMethod(channel: grpc.Client, method: DescMethod, defaults: Readonly<Record<string, string>> | undefined): unknown {
  const path = methodPath(method);
  const serialize = serializerFor(method.input);
  const deserialize = deserializerFor(method.output) as (bytes: Buffer) => object;
  switch (method.methodKind) {
    case "unary":
      return (request: object, options?: CallOptions) =>
        new Promise((resolve, reject) => {
          const { metadata, callOptions } = callArguments(defaults, options);
          const traced = startClientCall(method, metadata);
          const call = channel.makeUnaryRequest(path, serialize, deserialize, request, metadata, callOptions, settle(traced, resolve, reject));
          bindSignal(call, options?.signal);
        });
    case "client_streaming":
      return (requests: AsyncIterable<object> | Iterable<object>, options?: CallOptions) =>
        new Promise((resolve, reject) => {
          const { metadata, callOptions } = callArguments(defaults, options);
          const traced = startClientCall(method, metadata);
          const call = channel.makeClientStreamRequest(path, serialize, deserialize, metadata, callOptions, settle(traced, resolve, reject));
          bindSignal(call, options?.signal);
          writeAll(call, requests).then(() => tellAccepted(options?.onAccepted), reject);
        });
    case "server_streaming":
      return (request: object, options?: CallOptions) => {
        const { metadata, callOptions } = callArguments(defaults, options);
        const traced = startClientCall(method, metadata);
        const call = channel.makeServerStreamRequest(path, serialize, deserialize, request, metadata, callOptions);
        bindSignal(call, options?.signal);
        return readAll(call, traced);
      };
    case "bidi_streaming":
      return (requests: AsyncIterable<object> | Iterable<object>, options?: CallOptions) => {
        const { metadata, callOptions } = callArguments(defaults, options);
        const traced = startClientCall(method, metadata);
        const call = channel.makeBidiStreamRequest(path, serialize, deserialize, metadata, callOptions);
        bindSignal(call, options?.signal);
        writeAll(call, requests).catch(() => call.cancel());
        return readAll(call, traced);
      };
  }
}

/**
 * How every Loupe channel reconnects: Loupe's servers restart within a second or two, and grpc-js's
 * default backoff grows to two minutes (a restarted archive would see every save fail-open meanwhile).
 */
export const RECONNECT_OPTIONS = { "grpc.initial_reconnect_backoff_ms": 100, "grpc.max_reconnect_backoff_ms": 1000 } as const;

/**
 * Creates a typed client of `service` at `address` (host:port), with one
 * function per method; failures reject with an AppError mapped from the status.
 */
export function createGrpcClient<S extends DescService>(service: S, address: string, options: GrpcClientOptions): GrpcClient<S> {
  const channel =
    options.channel ??
    new grpc.Client(address, options.credentials ?? grpc.credentials.createInsecure(), {
      ...messageLimitOptions(options.maxResultBytes),
      ...RECONNECT_OPTIONS,
    });
  const client: Record<string, unknown> = {};
  for (const method of service.methods) client[method.localName] = createMethod(channel, method, options.metadata);
  client["close"] = () => {
    if (!options.channel) channel.close();
  };
  client["channel"] = channel;
  return client as GrpcClient<S>;
}
