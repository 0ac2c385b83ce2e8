import { AppError } from "@loupe/errors";

/** The JSON body of every Loupe event. */
export interface EventEnvelope<T> {
  /** What happened, as the subject's `<entity>.<event>` (`turn.appended`). */
  type: string;
  /** Unique id of this event; also the publish msgId, so a retried publish is deduplicated. */
  id: string;
  /** The tenant the event belongs to. */
  tenant: string;
  /** When it happened: an ISO 8601 UTC timestamp (`Date.prototype.toISOString`). */
  time: string;
  /** The payload; JSON-serialisable. */
  data: T;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Serialises an envelope as UTF-8 JSON.
 *
 * @throws AppError `invalid_argument` when a field is missing or malformed, or `data` is not JSON-serialisable
 */
export function encodeEnvelope<T>(envelope: EventEnvelope<T>): Uint8Array {
  const problem = envelopeProblem(envelope);
  if (problem !== undefined) throw new AppError("invalid_argument", `invalid event envelope [${problem}]`);
  let json: string;
  try {
    json = JSON.stringify({ type: envelope.type, id: envelope.id, tenant: envelope.tenant, time: envelope.time, data: envelope.data });
  } catch (error) {
    throw new AppError("invalid_argument", `invalid event envelope [type=${envelope.type}, reason=data not serialisable]`, { cause: error });
  }
  return encoder.encode(json);
}

/**
 * Parses what {@link encodeEnvelope} produced. `data` is returned unchecked;
 * the consumer validates it for its `type`.
 *
 * @throws AppError `invalid_argument` for anything else (a poison message: term it)
 */
export function decodeEnvelope(bytes: Uint8Array): EventEnvelope<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (error) {
    throw new AppError("invalid_argument", `malformed event envelope [sizeBytes=${bytes.byteLength}, reason=not utf-8 json]`, {
      cause: error,
    });
  }
  const problem = envelopeProblem(value);
  if (problem !== undefined) throw new AppError("invalid_argument", `malformed event envelope [${problem}]`);
  const envelope = value as EventEnvelope<unknown>;
  return { type: envelope.type, id: envelope.id, tenant: envelope.tenant, time: envelope.time, data: envelope.data };
}

function envelopeProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "reason=not an object";
  const record = value as Record<string, unknown>;
  for (const field of ["type", "id", "tenant"] as const) {
    if (typeof record[field] !== "string" || record[field] === "") return `reason=${field} missing`;
  }
  const time = record["time"];
  if (typeof time !== "string" || !ISO_TIME.test(time) || Number.isNaN(Date.parse(time))) return "reason=time not iso 8601";
  if (!("data" in record) || record["data"] === undefined) return "reason=data missing";
  return undefined;
}
