import { createHash } from "node:crypto";
import { AppError } from "@loupe/errors";
import type { Bus } from "./bus.js";
import { encodeEnvelope } from "./event-envelope.js";
import { subjectFor } from "./subject-for.js";

/** The event type of a tool result Project saved. */
export const RESULT_PROJECTED = "result.projected";

/**
 * What a `result.projected` event carries: where the saved original is and what it was — metadata
 * only, never the content (the archive holds it).
 */
export interface ResultProjectedData {
  sessionId: string;
  source: string;
  /** The tool call the result answers ("" when the runtime sent none). */
  toolUseId: string;
  resultId: string;
  /** The tool kind, lower case (`command`, `file_read`, …). */
  kind: string;
  toolName: string;
  /** The file a file read or edit named ("" otherwise). */
  path: string;
  originalTokens: number;
  projectedTokens: number;
  /** `sha256:<hex>` of the saved original. */
  revision: string;
}

/** The subject of a session's result events: `loupe.result.projected.<tenant>.<session>` (ids encoded). */
export function resultSubject(tenant: string, sessionId: string): string {
  return subjectFor("result", "projected", tenant, sessionId);
}

/** The subject filter of every result event. */
export const RESULT_EVENTS_FILTER = "loupe.result.projected.>";

/**
 * Publishes one `result.projected` event and resolves once the stream stored it. Its id (also the
 * msgId) is a hash of (tenant, session, result id, tool_use_id): the same save sent twice is stored once.
 */
export async function publishResultProjected(
  bus: Bus,
  tenant: string,
  data: ResultProjectedData,
  now: Date,
  headers?: Readonly<Record<string, string>>,
): Promise<void> {
  const id = createHash("sha256")
    .update(JSON.stringify([tenant, data.sessionId, data.resultId, data.toolUseId]))
    .digest("hex");
  const body = encodeEnvelope({ type: RESULT_PROJECTED, id, tenant, time: now.toISOString(), data });
  await bus.publish(resultSubject(tenant, data.sessionId), body, { msgId: id, ...(headers ? { headers: { ...headers } } : {}) });
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * Checks a `result.projected` event's data.
 * @throws AppError `invalid_argument` (a poison message) naming what is wrong
 */
export function parseResultProjected(data: unknown): ResultProjectedData {
  const record = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const strings = ["sessionId", "source", "toolUseId", "resultId", "kind", "toolName", "path", "revision"] as const;
  for (const field of strings) {
    if (typeof record[field] !== "string") throw new AppError("invalid_argument", `result event without ${field}`);
  }
  if (record["resultId"] === "") throw new AppError("invalid_argument", "result event with an empty result id");
  if (!isCount(record["originalTokens"]) || !isCount(record["projectedTokens"])) throw new AppError("invalid_argument", "result event with a bad token count");
  const text = (field: (typeof strings)[number]): string => record[field] as string;
  return {
    sessionId: text("sessionId"),
    source: text("source"),
    toolUseId: text("toolUseId"),
    resultId: text("resultId"),
    kind: text("kind"),
    toolName: text("toolName"),
    path: text("path"),
    revision: text("revision"),
    originalTokens: record["originalTokens"],
    projectedTokens: record["projectedTokens"],
  };
}
