import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { parseViewSpecs, redactSecrets, validateCutRule } from "@loupe/projection";
import type { SourceLimit, SourceLimitSchema } from "@loupe/proto";

/** Largest budget_tokens a request or rule may ask for. */
export const MAX_BUDGET_TOKENS = 200_000;
/** Smallest non-zero budget_tokens (a view needs room for its notices). */
export const MIN_BUDGET_TOKENS = 64;
/** Default share of the context window at which AppendTurns reports compaction_due. */
export const DEFAULT_COMPACT_AT_PERCENT = 80;
/** Default share of the context window of uncovered turns at which the note-worker updates the note. */
export const DEFAULT_NOTE_UPDATE_PERCENT = 20;
/** Default vendor prompt-cache lifetime (Anthropic's and OpenAI's default: 5 minutes). */
export const DEFAULT_VENDOR_CACHE_TTL_SECONDS = 300;
/** Most images image_keep_last may keep. */
export const MAX_IMAGE_KEEP_LAST = 1000;
/** Longest vendor cache lifetime a rule may declare (one day). */
export const MAX_VENDOR_CACHE_TTL_SECONDS = 86_400;

/** A source's (app's) rule: the history cut, Loupe's own mode and budget, views and summarizer. */
export interface SourceRule {
  /** 0 = the cut is off (the default for every app). */
  keepLimitChars: number;
  keepHeadChars: number;
  keepTailChars: number;
  /** Tools whose results the cut may shorten, matched case-insensitively. */
  keepTools: string[];
  mode: "cut" | "project";
  /** 0 = unset (the model profile's default). */
  budgetTokens: number;
  viewSpecsJson: string;
  summarizer: { driver: string; model: string; baseUrl: string; keyRef: string };
  /** Percent of the context window at which compaction is due. */
  compactAtPercent: number;
  /** Percent of the context window of uncovered turns that triggers a note update. */
  noteUpdatePercent: number;
  /** The history cut keeps this many last images whole; older ones become thumbnails (0 = off). */
  imageKeepLast: number;
  /** The history cut replaces an image identical to a later one by a reference to it. */
  imageDedupe: boolean;
  /** The vendor's prompt-cache lifetime, in seconds: earlier images change only once it has passed. */
  vendorCacheTtlSeconds: number;
  /** Increases with every change. */
  version: number;
}

/** What every app starts with: no cut; head 3,000 and tail 3,000 characters of bash/shell/execute once enabled. */
export const DEFAULT_SOURCE_RULE: SourceRule = Object.freeze({
  keepLimitChars: 0,
  keepHeadChars: 3000,
  keepTailChars: 3000,
  keepTools: ["bash", "shell", "execute"],
  mode: "cut",
  budgetTokens: 0,
  viewSpecsJson: "",
  summarizer: { driver: "", model: "", baseUrl: "", keyRef: "" },
  compactAtPercent: DEFAULT_COMPACT_AT_PERCENT,
  noteUpdatePercent: DEFAULT_NOTE_UPDATE_PERCENT,
  imageKeepLast: 0,
  imageDedupe: false,
  vendorCacheTtlSeconds: DEFAULT_VENDOR_CACHE_TTL_SECONDS,
  version: 0,
});

// A reference to where a key lives, never the key itself.
const KEY_REF = /^(env|secret|file):[A-Za-z0-9_./-]{1,200}$/;

/** The rule with the fields `patch` sets (proto presence) changed and the others kept. */
export function mergeRule(stored: SourceRule, patch: SourceLimit): SourceRule {
  const summarizer = patch.summarizer;
  return {
    keepLimitChars: patch.keepLimitChars ?? stored.keepLimitChars,
    keepHeadChars: patch.keepHeadChars ?? stored.keepHeadChars,
    keepTailChars: patch.keepTailChars ?? stored.keepTailChars,
    keepTools: patch.keepTools ? patch.keepTools.values.map((tool) => tool.trim()).filter((tool) => tool !== "") : stored.keepTools,
    mode: (patch.mode ?? stored.mode) as SourceRule["mode"],
    budgetTokens: patch.budgetTokens ?? stored.budgetTokens,
    viewSpecsJson: patch.viewSpecsJson ?? stored.viewSpecsJson,
    summarizer: {
      driver: summarizer?.driver ?? stored.summarizer.driver,
      model: summarizer?.model ?? stored.summarizer.model,
      baseUrl: summarizer?.baseUrl ?? stored.summarizer.baseUrl,
      keyRef: summarizer?.keyRef ?? stored.summarizer.keyRef,
    },
    compactAtPercent: patch.compactAtPercent ?? stored.compactAtPercent,
    noteUpdatePercent: patch.noteUpdatePercent ?? stored.noteUpdatePercent,
    imageKeepLast: patch.imageKeepLast ?? stored.imageKeepLast,
    imageDedupe: patch.imageDedupe ?? stored.imageDedupe,
    vendorCacheTtlSeconds: patch.vendorCacheTtlSeconds ?? stored.vendorCacheTtlSeconds,
    version: stored.version,
  };
}

/**
 * Checks a whole rule, saying why it is refused.
 * @throws AppError `invalid_argument`
 */
export function validateRule(rule: SourceRule): void {
  if (rule.keepLimitChars > 0) {
    validateCutRule({ keepLimitChars: rule.keepLimitChars, keepHeadChars: rule.keepHeadChars, keepTailChars: rule.keepTailChars, keepTools: rule.keepTools });
  }
  if (rule.mode !== "cut" && rule.mode !== "project")
    throw new AppError("invalid_argument", `mode must be cut or project [mode=${String(rule.mode).slice(0, 40)}]`);
  if (rule.budgetTokens > MAX_BUDGET_TOKENS) throw new AppError("invalid_argument", `budget_tokens above the maximum [max=${String(MAX_BUDGET_TOKENS)}]`);
  if (rule.budgetTokens !== 0 && rule.budgetTokens < MIN_BUDGET_TOKENS)
    throw new AppError("invalid_argument", `budget_tokens below the minimum [min=${String(MIN_BUDGET_TOKENS)}]`);
  if (rule.viewSpecsJson !== "") parseViewSpecs(rule.viewSpecsJson);
  const { keyRef } = rule.summarizer;
  if (keyRef !== "" && (!KEY_REF.test(keyRef) || redactSecrets(keyRef).count > 0)) {
    throw new AppError("invalid_argument", "summarizer.key_ref must name where a key lives (env:NAME, secret:NAME or file:PATH), never the key itself");
  }
  if (rule.compactAtPercent < 10 || rule.compactAtPercent > 100)
    throw new AppError("invalid_argument", `compact_at_percent must be 10 to 100 [compact_at_percent=${String(rule.compactAtPercent)}]`);
  if (rule.noteUpdatePercent < 1 || rule.noteUpdatePercent >= rule.compactAtPercent) {
    throw new AppError(
      "invalid_argument",
      `note_update_percent must be at least 1 and below compact_at_percent [note_update_percent=${String(rule.noteUpdatePercent)}]`,
    );
  }
  if (rule.imageKeepLast > MAX_IMAGE_KEEP_LAST)
    throw new AppError(
      "invalid_argument",
      `image_keep_last above the maximum [max=${String(MAX_IMAGE_KEEP_LAST)}, image_keep_last=${String(rule.imageKeepLast)}]`,
    );
  if (rule.vendorCacheTtlSeconds < 1 || rule.vendorCacheTtlSeconds > MAX_VENDOR_CACHE_TTL_SECONDS) {
    throw new AppError(
      "invalid_argument",
      `vendor_cache_ttl_seconds must be 1 to ${String(MAX_VENDOR_CACHE_TTL_SECONDS)} [vendor_cache_ttl_seconds=${String(rule.vendorCacheTtlSeconds)}]`,
    );
  }
  if (!["", "anthropic", "openai", "extractive"].includes(rule.summarizer.driver)) {
    throw new AppError("invalid_argument", `summarizer.driver must be anthropic, openai or extractive [driver=${rule.summarizer.driver.slice(0, 40)}]`);
  }
}

/** The proto form of a rule. */
export function toSourceLimit(rule: SourceRule): MessageInitShape<typeof SourceLimitSchema> {
  return { ...rule, keepTools: { values: rule.keepTools }, summarizer: { ...rule.summarizer } };
}
