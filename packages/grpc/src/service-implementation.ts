import { AppError, isAppError } from "@loupe/errors";
import type { DescService } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { context as otelContext } from "@opentelemetry/api";
import { readMessages } from "./read-messages.js";
import { UndecodableRequest } from "./service-definition.js";
import { startServerCall } from "./rpc-tracing.js";
import { grpcStatusFromError } from "./status.js";
import type { HandlerContext, ServiceHandlers } from "./handler-types.js";

/** Called with every error a handler throws, before it is turned into a status. */
export type ErrorObserver = (error: unknown, method: string) => void;

type AnyCall = Pick<grpc.ServerUnaryCall<object, object>, "getDeadline" | "metadata"> & NodeJS.EventEmitter;
type AnyHandler = (input: unknown, context: HandlerContext) => unknown;

function contextFor(call: AnyCall): { context: HandlerContext; dispose: () => void } {
  const controller = new AbortController();
  const onCancel = (): void => controller.abort(new Error("call cancelled by the client"));
  call.on("cancelled", onCancel);
  const deadline = call.getDeadline();
  const deadlineMs = deadline instanceof Date ? deadline.getTime() : Number.isFinite(deadline) ? deadline : undefined;
  let timer: NodeJS.Timeout | undefined;
  if (deadlineMs !== undefined) {
    timer = setTimeout(() => controller.abort(new Error("deadline exceeded")), Math.max(0, deadlineMs - Date.now()));
    timer.unref();
  }
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(call.metadata.getMap())) {
    if (typeof value === "string") metadata[key.toLowerCase()] = value;
  }
  const dispose = (): void => {
    call.removeListener("cancelled", onCancel);
    if (timer) clearTimeout(timer);
  };
  return { context: { metadata, signal: controller.signal, deadlineMs }, dispose };
}

/** The trailer naming when a call may be retried, in ms (gRPC's retry design). */
export const RETRY_PUSHBACK_KEY = "grpc-retry-pushback-ms";
/** The trailer naming which meaning of its code an error has (too_large, rate_limited, overloaded). */
export const ERROR_REASON_KEY = "loupe-error-reason";

function toServiceError(error: unknown, method: string, observe: ErrorObserver | undefined): Partial<grpc.ServiceError> {
  observe?.(error, method);
  const status = grpcStatusFromError(error);
  const serviceError: Partial<grpc.ServiceError> = { code: status.code, details: status.details, message: status.details };
  // When to retry (grpc-js's own retry policy reads grpc-retry-pushback-ms), and which of a code's meanings this is.
  if (isAppError(error) && (error.retryAfterMs !== undefined || error.reason !== undefined)) {
    const metadata = new grpc.Metadata();
    if (error.retryAfterMs !== undefined) metadata.set(RETRY_PUSHBACK_KEY, String(Math.max(0, Math.round(error.retryAfterMs))));
    if (error.reason !== undefined) metadata.set(ERROR_REASON_KEY, error.reason);
    serviceError.metadata = metadata;
  }
  return serviceError;
}

/**
 * A request that did not decode is refused with INVALID_ARGUMENT, naming what was wrong.
 * @throws AppError `invalid_argument`
 */
function refuseUndecodable<T>(input: T): T {
  if (input instanceof UndecodableRequest) throw new AppError("invalid_argument", input.message);
  return input;
}

/** The messages of a request stream, refusing one that did not decode. */
async function* decoded(messages: AsyncIterable<object>): AsyncIterable<object> {
  for await (const message of messages) yield refuseUndecodable(message);
}

/**
 * Adapts typed handlers to grpc-js's untyped implementation object: requests
 * arrive decoded, responses are encoded from init shapes, every thrown error
 * becomes a status through `grpcStatusFromError`, and each call gets an
 * AbortSignal tied to cancellation and deadline.
 */
export function createServiceImplementation<S extends DescService>(
  service: S,
  handlers: ServiceHandlers<S>,
  observe?: ErrorObserver,
): grpc.UntypedServiceImplementation {
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const method of service.methods) {
    const handler = (handlers as Record<string, AnyHandler>)[method.localName];
    if (handler === undefined) throw new TypeError(`no handler for ${method.parent.typeName}.${method.name}`);
    const name = `${method.parent.typeName}/${method.name}`;
    switch (method.methodKind) {
      case "unary":
      case "client_streaming":
        implementation[method.localName] = (call: AnyCall, callback: grpc.sendUnaryData<object>) => {
          const { context, dispose } = contextFor(call);
          const traced = startServerCall(method, context.metadata);
          const input =
            method.methodKind === "unary"
              ? (call as grpc.ServerUnaryCall<object, object>).request
              : decoded(readMessages(call as grpc.ServerReadableStream<object, object>));
          Promise.resolve()
            .then(() => otelContext.with(traced.context, () => handler(refuseUndecodable(input), context) as Promise<object>))
            .then(
              (response) => {
                traced.finish(grpc.status.OK);
                callback(null, response);
              },
              (error: unknown) => {
                const failure = toServiceError(error, name, observe);
                traced.finish(failure.code ?? grpc.status.UNKNOWN, failure.details);
                callback(failure);
              },
            )
            .finally(dispose);
        };
        break;
      case "server_streaming":
      case "bidi_streaming":
        implementation[method.localName] = (call: grpc.ServerWritableStream<object, object> | grpc.ServerDuplexStream<object, object>) => {
          const { context, dispose } = contextFor(call);
          const traced = startServerCall(method, context.metadata);
          const input =
            method.methodKind === "server_streaming"
              ? (call as grpc.ServerWritableStream<object, object>).request
              : decoded(readMessages(call as grpc.ServerDuplexStream<object, object>));
          void otelContext.with(traced.context, async () => {
            try {
              for await (const response of handler(refuseUndecodable(input), context) as AsyncIterable<object>) {
                if (!call.write(response)) await new Promise((resolve) => call.once("drain", resolve));
              }
              call.end();
              traced.finish(grpc.status.OK);
            } catch (error) {
              const failure = toServiceError(error, name, observe);
              traced.finish(failure.code ?? grpc.status.UNKNOWN, failure.details);
              call.emit("error", failure);
            } finally {
              dispose();
            }
          });
        };
        break;
    }
  }
  return implementation;
}
