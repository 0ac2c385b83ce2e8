import { AppError } from "@loupe/errors";
import { DEFAULT_DUPLICATE_WINDOW_MS } from "./bus.js";
import type { StreamConfig } from "./bus.js";
import { isValidFilter, isValidName } from "./subject-match.js";

/** The name of Loupe's one stream. */
export const LOUPE_STREAM = "LOUPE_EVENTS";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Loupe's stream: name `LOUPE_EVENTS`, subjects `loupe.>`, messages kept 7
 * days and at most 1 GiB (oldest discarded first), msgId dedupe over 2 minutes.
 * `overrides` replace single fields.
 */
export function defaultStreamConfig(overrides: Partial<StreamConfig> = {}): StreamConfig {
  return {
    name: LOUPE_STREAM,
    subjects: ["loupe.>"],
    maxAgeMs: 7 * DAY_MS,
    maxBytes: 1024 * 1024 * 1024,
    duplicateWindowMs: DEFAULT_DUPLICATE_WINDOW_MS,
    ...overrides,
  };
}

/** A StreamConfig with every field set. */
export type ResolvedStreamConfig = Required<StreamConfig>;

/**
 * Checks a stream config and fills the duplicate window (unset or 0: 2 min,
 * capped at `maxAgeMs` as NATS requires). `maxAgeMs` or `maxBytes` 0 means
 * no limit.
 *
 * @throws AppError `invalid_argument` naming every problem
 */
export function resolveStreamConfig(config: StreamConfig): ResolvedStreamConfig {
  const problems: string[] = [];
  if (!isValidName(config.name)) problems.push(`name=${JSON.stringify(config.name)}`);
  if (config.subjects.length === 0) problems.push("subjects=[]");
  for (const subject of config.subjects) {
    if (!isValidFilter(subject)) problems.push(`subject=${JSON.stringify(subject)}`);
  }
  for (const [field, value] of [
    ["maxAgeMs", config.maxAgeMs],
    ["maxBytes", config.maxBytes],
    ["duplicateWindowMs", config.duplicateWindowMs ?? 0],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) problems.push(`${field}=${String(value)}`);
  }
  if (problems.length > 0) throw new AppError("invalid_argument", `invalid stream config [${problems.join(", ")}]`);
  const window = config.duplicateWindowMs || DEFAULT_DUPLICATE_WINDOW_MS;
  return {
    name: config.name,
    subjects: [...config.subjects],
    maxAgeMs: config.maxAgeMs,
    maxBytes: config.maxBytes,
    duplicateWindowMs: config.maxAgeMs > 0 ? Math.min(window, config.maxAgeMs) : window,
  };
}
