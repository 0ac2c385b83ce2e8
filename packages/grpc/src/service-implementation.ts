import type { DescService } from "@bufbuild/protobuf";
import type * as grpc from "@grpc/grpc-js";
import { readMessages } from "./read-messages.js";
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

function toServiceError(error: unknown, method: string, observe: ErrorObserver | undefined): Partial<grpc.ServiceError> {
  observe?.(error, method);
  const status = grpcStatusFromError(error);
  return { code: status.code, details: status.details, message: status.details };
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
          const input =
            method.methodKind === "unary" ? (call as grpc.ServerUnaryCall<object, object>).request : readMessages(call as grpc.ServerReadableStream<object, object>);
          Promise.resolve()
            .then(() => handler(input, context) as Promise<object>)
            .then(
              (response) => callback(null, response),
              (error: unknown) => callback(toServiceError(error, name, observe)),
            )
            .finally(dispose);
        };
        break;
      case "server_streaming":
      case "bidi_streaming":
        implementation[method.localName] = (call: grpc.ServerWritableStream<object, object> | grpc.ServerDuplexStream<object, object>) => {
          const { context, dispose } = contextFor(call);
          const input =
            method.methodKind === "server_streaming"
              ? (call as grpc.ServerWritableStream<object, object>).request
              : readMessages(call as grpc.ServerDuplexStream<object, object>);
          void (async () => {
            try {
              for await (const response of handler(input, context) as AsyncIterable<object>) {
                if (!call.write(response)) await new Promise((resolve) => call.once("drain", resolve));
              }
              call.end();
            } catch (error) {
              call.emit("error", toServiceError(error, name, observe));
            } finally {
              dispose();
            }
          })();
        };
        break;
    }
  }
  return implementation;
}
