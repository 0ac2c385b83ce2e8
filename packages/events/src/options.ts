import { AppError } from "@loupe/errors";
import { DEFAULT_ACK_WAIT_MS, DEFAULT_MAX_DELIVER, DEFAULT_MAX_MESSAGES, DEFAULT_MAX_PAYLOAD_BYTES } from "./bus.js";
import type { ConsumeOptions, PublishOptions } from "./bus.js";
import { isValidFilter, isValidName, isValidSubject } from "./subject-match.js";

/** ConsumeOptions with defaults applied. */
export type ResolvedConsumeOptions = Required<Omit<ConsumeOptions, "signal">> & Pick<ConsumeOptions, "signal">;

const HEADER_KEY = /^[!-9;-~]+$/;
const RESERVED_PREFIX = "nats-";

/**
 * Applies defaults and checks a consume request the same way for every adapter.
 *
 * @throws AppError `invalid_argument` naming every problem
 */
export function resolveConsumeOptions(stream: string, options: ConsumeOptions): ResolvedConsumeOptions {
  const resolved: ResolvedConsumeOptions = {
    durable: options.durable,
    filterSubject: options.filterSubject,
    ackWaitMs: options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS,
    maxDeliver: options.maxDeliver ?? DEFAULT_MAX_DELIVER,
    maxMessages: options.maxMessages ?? DEFAULT_MAX_MESSAGES,
    startAt: options.startAt ?? "all",
    handler: options.handler,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const problems: string[] = [];
  if (!isValidName(stream)) problems.push(`stream=${JSON.stringify(stream)}`);
  if (!isValidName(resolved.durable)) problems.push(`durable=${JSON.stringify(resolved.durable)}`);
  if (!isValidFilter(resolved.filterSubject)) problems.push(`filterSubject=${JSON.stringify(resolved.filterSubject)}`);
  if (!isPositiveInteger(resolved.ackWaitMs)) problems.push(`ackWaitMs=${String(resolved.ackWaitMs)}`);
  if (!isPositiveInteger(resolved.maxDeliver)) problems.push(`maxDeliver=${String(resolved.maxDeliver)}`);
  if (!isPositiveInteger(resolved.maxMessages)) problems.push(`maxMessages=${String(resolved.maxMessages)}`);
  if (resolved.startAt !== "all" && resolved.startAt !== "new") problems.push(`startAt=${JSON.stringify(resolved.startAt)}`);
  if (problems.length > 0) throw new AppError("invalid_argument", `invalid consume options [${problems.join(", ")}]`);
  return resolved;
}

/**
 * Checks a publish request the same way for every adapter.
 *
 * @throws AppError `invalid_argument` for a bad subject, msgId or header;
 *   `resource_exhausted` when `data` exceeds `maxPayloadBytes`
 */
export function checkPublish(subject: string, data: Uint8Array, options: PublishOptions, maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES): void {
  if (!isValidSubject(subject)) throw new AppError("invalid_argument", `invalid subject [subject=${JSON.stringify(subject)}]`);
  if (options.msgId !== undefined && (options.msgId === "" || /[\r\n]/.test(options.msgId))) {
    throw new AppError("invalid_argument", `invalid msgId [subject=${subject}]`);
  }
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (!HEADER_KEY.test(key) || key.toLowerCase().startsWith(RESERVED_PREFIX) || /[\r\n]/.test(value)) {
      throw new AppError("invalid_argument", `invalid header [subject=${subject}, key=${JSON.stringify(key)}]`);
    }
  }
  if (data.byteLength > maxPayloadBytes) {
    throw new AppError("resource_exhausted", `message too large [subject=${subject}, sizeBytes=${data.byteLength}, maxPayloadBytes=${maxPayloadBytes}]`);
  }
}

/** True for header keys the bus reserves (`Nats-…`), which deliveries do not show. */
export function isReservedHeader(key: string): boolean {
  return key.toLowerCase().startsWith(RESERVED_PREFIX);
}

/** Throws AppError `cancelled` when the signal has already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new AppError("cancelled", `${what} cancelled`, { cause: signal.reason });
}

function isPositiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

/**
 * Resolves or rejects like `work`, or rejects with AppError `cancelled` as
 * soon as `signal` aborts (the work itself goes on and its outcome is dropped).
 */
export async function raceSignal<T>(work: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (!signal) return work;
  throwIfAborted(signal, what);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AppError("cancelled", `${what} cancelled`, { cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  work.catch(() => undefined); // its rejection is reported by the race, or dropped after a cancel
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
