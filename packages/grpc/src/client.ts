import type { DescMethod, DescService } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import type { CallOptions, ServiceClient } from "./handler-types.js";
import { messageLimitOptions } from "./message-limits.js";
import { deserializerFor, methodPath, serializerFor } from "./service-definition.js";
import { errorFromGrpcStatus } from "./status.js";

/** Options for {@link createGrpcClient}. */
export interface GrpcClientOptions {
  /** Largest result the client sends or accepts; message limits are raised to match. */
  maxResultBytes: number;
  /** Metadata sent with every call (per-call metadata wins). */
  metadata?: Readonly<Record<string, string>>;
  /** A channel to share between several service clients. */
  channel?: grpc.Client;
}

/** A typed client plus the underlying channel. */
export type GrpcClient<S extends DescService> = ServiceClient<S> & {
  /** Closes the channel (unless it was passed in). */
  close(): void;
  readonly channel: grpc.Client;
};

function callArguments(defaults: Readonly<Record<string, string>> | undefined, options: CallOptions | undefined): { metadata: grpc.Metadata; callOptions: grpc.CallOptions } {
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

async function* readAll(stream: grpc.ClientReadableStream<object>): AsyncIterable<object> {
  try {
    for await (const message of stream) yield message as object;
  } catch (error) {
    throw errorFromGrpcStatus(error as grpc.ServiceError);
  }
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
          const call = channel.makeUnaryRequest(path, serialize, deserialize, request, metadata, callOptions, (error, response) =>
            error ? reject(errorFromGrpcStatus(error)) : resolve(response),
          );
          bindSignal(call, options?.signal);
        });
    case "client_streaming":
      return (requests: AsyncIterable<object> | Iterable<object>, options?: CallOptions) =>
        new Promise((resolve, reject) => {
          const { metadata, callOptions } = callArguments(defaults, options);
          const call = channel.makeClientStreamRequest(path, serialize, deserialize, metadata, callOptions, (error, response) =>
            error ? reject(errorFromGrpcStatus(error)) : resolve(response),
          );
          bindSignal(call, options?.signal);
          writeAll(call, requests).catch(reject);
        });
    case "server_streaming":
      return (request: object, options?: CallOptions) => {
        const { metadata, callOptions } = callArguments(defaults, options);
        const call = channel.makeServerStreamRequest(path, serialize, deserialize, request, metadata, callOptions);
        bindSignal(call, options?.signal);
        return readAll(call);
      };
    case "bidi_streaming":
      return (requests: AsyncIterable<object> | Iterable<object>, options?: CallOptions) => {
        const { metadata, callOptions } = callArguments(defaults, options);
        const call = channel.makeBidiStreamRequest(path, serialize, deserialize, metadata, callOptions);
        bindSignal(call, options?.signal);
        writeAll(call, requests).catch(() => call.cancel());
        return readAll(call);
      };
  }
}

/**
 * Creates a typed client of `service` at `address` (host:port), with one
 * function per method; failures reject with an AppError mapped from the status.
 */
export function createGrpcClient<S extends DescService>(service: S, address: string, options: GrpcClientOptions): GrpcClient<S> {
  const channel = options.channel ?? new grpc.Client(address, grpc.credentials.createInsecure(), messageLimitOptions(options.maxResultBytes));
  const client: Record<string, unknown> = {};
  for (const method of service.methods) client[method.localName] = createMethod(channel, method, options.metadata);
  client["close"] = () => {
    if (!options.channel) channel.close();
  };
  client["channel"] = channel;
  return client as GrpcClient<S>;
}
