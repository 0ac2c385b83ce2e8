import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { parseViewSpecs, redactSecrets, validateCutRule } from "@loupe/projection";
import type { SourceLimit, SourceLimitSchema } from "@loupe/proto";
import { stateKey, type StateStore } from "@loupe/state-store";
import { MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS } from "./config.js";

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
  if (rule.mode !== "cut" && rule.mode !== "project") throw new AppError("invalid_argument", `mode must be cut or project [mode=${String(rule.mode).slice(0, 40)}]`);
  if (rule.budgetTokens > MAX_BUDGET_TOKENS) throw new AppError("invalid_argument", `budget_tokens above the maximum [max=${String(MAX_BUDGET_TOKENS)}]`);
  if (rule.budgetTokens !== 0 && rule.budgetTokens < MIN_BUDGET_TOKENS) throw new AppError("invalid_argument", `budget_tokens below the minimum [min=${String(MIN_BUDGET_TOKENS)}]`);
  if (rule.viewSpecsJson !== "") parseViewSpecs(rule.viewSpecsJson);
  const { keyRef } = rule.summarizer;
  if (keyRef !== "" && (!KEY_REF.test(keyRef) || redactSecrets(keyRef).count > 0)) {
    throw new AppError("invalid_argument", "summarizer.key_ref must name where a key lives (env:NAME, secret:NAME or file:PATH), never the key itself");
  }
  if (!["", "anthropic", "openai", "extractive"].includes(rule.summarizer.driver)) {
    throw new AppError("invalid_argument", `summarizer.driver must be anthropic, openai or extractive [driver=${rule.summarizer.driver.slice(0, 40)}]`);
  }
}

/** The proto form of a rule. */
export function toSourceLimit(rule: SourceRule): MessageInitShape<typeof SourceLimitSchema> {
  return { ...rule, keepTools: { values: rule.keepTools }, summarizer: { ...rule.summarizer } };
}

/** Rules keyed by (tenant, source) in the state store. */
export interface SourceRules {
  get(tenant: string, source: string): Promise<SourceRule>;
  /** The rule as it was at `version` (every version is kept); undefined for an unknown version. */
  atVersion(tenant: string, source: string, version: number): Promise<SourceRule | undefined>;
  /** Applies a partial update atomically (compare-and-set); returns the stored rule. */
  update(tenant: string, source: string, patch: SourceLimit): Promise<SourceRule>;
}

const MAX_ATTEMPTS = 16;

/** Source rules in `state`. */
export function createSourceRules(state: StateStore): SourceRules {
  const key = (tenant: string, source: string): string => stateKey(tenant, "source-rule", source);
  const versionKey = (tenant: string, source: string, version: number): string => stateKey(tenant, "source-rule-version", source, String(version));
  const load = async (tenant: string, source: string): Promise<{ raw: string | undefined; rule: SourceRule }> => {
    const raw = await state.get(key(tenant, source));
    return { raw, rule: raw === undefined ? { ...DEFAULT_SOURCE_RULE } : { ...DEFAULT_SOURCE_RULE, ...(JSON.parse(raw) as Partial<SourceRule>) } };
  };
  return {
    get: async (tenant, source) => (await load(tenant, source)).rule,
    async atVersion(tenant, source, version) {
      if (version === 0) return { ...DEFAULT_SOURCE_RULE };
      const raw = await state.get(versionKey(tenant, source, version));
      return raw === undefined ? undefined : { ...DEFAULT_SOURCE_RULE, ...(JSON.parse(raw) as Partial<SourceRule>) };
    },
    async update(tenant, source, patch) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const { raw, rule } = await load(tenant, source);
        const next = mergeRule(rule, patch);
        validateRule(next);
        next.version = rule.version + 1;
        // The version's snapshot first: a result pinned to it must always find it.
        await state.set(versionKey(tenant, source, next.version), JSON.stringify(next));
        if (await state.compareAndSet(key(tenant, source), raw, JSON.stringify(next))) return next;
      }
      throw new AppError("aborted", `rule changed concurrently too often; retry [source=${source}]`);
    },
  };
}
