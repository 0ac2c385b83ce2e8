import { create, type DescMessage, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { AppError, isAppError } from "@loupe/errors";
import type { CallOptions, HandlerContext, ServiceClient, ServiceHandlers } from "./handler-types.js";
import { tellAccepted } from "./tell-accepted.js";

type AnyHandler = (input: unknown, context: HandlerContext) => unknown;

/** A call's context: the caller's metadata (keys lower-cased, as a server sees them), its cancellation and deadline. */
function contextFor(defaults: Readonly<Record<string, string>> | undefined, options: CallOptions | undefined) {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...defaults, ...options?.metadata })) metadata[key.toLowerCase()] = value;
  const controller = new AbortController();
  const deadlineMs = options?.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  if (options?.timeoutMs !== undefined) {
    timer = setTimeout(
      () => {
        expired = true;
        controller.abort(new Error("deadline exceeded"));
      },
      Math.max(0, options.timeoutMs),
    );
    timer.unref();
  }
  const signal = options?.signal;
  const onCancel = (): void => controller.abort(new Error("call cancelled by the client"));
  if (signal?.aborted === true) onCancel();
  else signal?.addEventListener("abort", onCancel, { once: true });
  let accepted = options?.onAccepted;
  const onAccepted = (): void => {
    const listener = accepted;
    accepted = undefined;
    tellAccepted(listener);
  };
  const context: HandlerContext = { metadata, signal: controller.signal, deadlineMs, ...(accepted ? { onAccepted } : {}) };
  // What a remote caller would see: the handler's AppError as it is (the status carries its code and
  // message), deadline and cancellation as their codes, anything else as an internal error.
  const settle = (error: unknown): AppError => {
    if (expired) return new AppError("deadline_exceeded", "deadline exceeded");
    if (signal?.aborted === true) return new AppError("cancelled", "call cancelled by the client");
    return isAppError(error) ? error : new AppError("internal", "internal error");
  };
  const dispose = (): void => {
    onAccepted();
    if (timer) clearTimeout(timer);
    signal?.removeEventListener("abort", onCancel);
  };
  return { context, settle, dispose };
}

/** Rejects as soon as the call is aborted, whether or not the handler notices. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = (): void => reject(signal.reason as Error);
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
}

type Init = Record<string, unknown>;

async function* created(schema: DescMessage, requests: AsyncIterable<Init> | Iterable<Init>): AsyncIterable<unknown> {
  for await (const request of requests) yield create(schema, request);
}

/**
 * A typed client that calls `handlers` in this process, with no channel, serialization or socket:
 * for a service the process also serves (embedded mode's archive). Requests go to the handlers as
 * messages (as decoding would give them), answers come back as messages; metadata, deadlines and
 * cancellation reach the handler's context as over gRPC, and errors reject as the gRPC client's do
 * (an AppError with its code; a deadline `deadline_exceeded`; a cancellation `cancelled`; anything
 * else `internal`); `onAccepted` reaches the handler's context, and is called when the call ends if the
 * handler did not call it. Unary and client-streaming methods only.
 */
export function createInProcessClient<S extends DescService>(
  service: S,
  handlers: ServiceHandlers<S>,
  defaults?: Readonly<Record<string, string>>,
): ServiceClient<S> & { close(): void } {
  const client: Record<string, unknown> = { close: () => undefined };
  for (const method of service.methods as readonly DescMethod[]) {
    const handler = (handlers as unknown as Record<string, AnyHandler>)[method.localName];
    if (handler === undefined) continue;
    if (method.methodKind !== "unary" && method.methodKind !== "client_streaming") continue;
    client[method.localName] = async (input: Init, options?: CallOptions): Promise<unknown> => {
      const { context, settle, dispose } = contextFor(defaults, options);
      try {
        const request = method.methodKind === "unary" ? create(method.input, input) : created(method.input, input as unknown as AsyncIterable<Init>);
        const handled = Promise.resolve(handler(request, context));
        // A handler still running when the call is given up may fail later: that is no longer anyone's answer.
        handled.catch(() => undefined);
        const answer = (await Promise.race([handled, untilAborted(context.signal)])) as Init;
        return create(method.output, answer);
      } catch (error) {
        throw settle(error);
      } finally {
        dispose();
      }
    };
  }
  return client as ServiceClient<S> & { close(): void };
}
