import { AppError } from "@loupe/errors";
import type { SourceLimit } from "@loupe/proto";
import { stateKey, type StateStore } from "@loupe/state-store";
import { DEFAULT_SOURCE_RULE, mergeRule, validateRule, type SourceRule } from "./source-rule.js";

/** Rules keyed by (tenant, source) in the state store. */
export interface SourceRules {
  get(tenant: string, source: string): Promise<SourceRule>;
  /** The rule as it was at `version` (every version is kept); undefined for an unknown version. */
  atVersion(tenant: string, source: string, version: number): Promise<SourceRule | undefined>;
  /** Applies a partial update atomically (compare-and-set); returns the stored rule. */
  update(tenant: string, source: string, patch: SourceLimit): Promise<SourceRule>;
  /** The sources whose rule was ever set (in name order). */
  list(tenant: string): Promise<string[]>;
}

const MAX_ATTEMPTS = 16;

/** Source rules in `state`. */
export function createSourceRules(state: StateStore): SourceRules {
  const key = (tenant: string, source: string): string => stateKey(tenant, "source-rule", source);
  const versionKey = (tenant: string, source: string, version: number): string => stateKey(tenant, "source-rule-version", source, String(version));
  const indexKey = (tenant: string): string => stateKey(tenant, "source-rule-index");
  const listed = async (tenant: string): Promise<{ raw: string | undefined; sources: string[] }> => {
    const raw = await state.get(indexKey(tenant));
    return { raw, sources: raw === undefined ? [] : (JSON.parse(raw) as string[]) };
  };
  const index = async (tenant: string, source: string): Promise<void> => {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const { raw, sources } = await listed(tenant);
      if (sources.includes(source)) return;
      if (await state.compareAndSet(indexKey(tenant), raw, JSON.stringify([...sources, source].sort()))) return;
    }
  };
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
    list: async (tenant) => (await listed(tenant)).sources,
    async update(tenant, source, patch) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const { raw, rule } = await load(tenant, source);
        const next = mergeRule(rule, patch);
        validateRule(next);
        next.version = rule.version + 1;
        // The version's snapshot first: a result pinned to it must always find it.
        await state.set(versionKey(tenant, source, next.version), JSON.stringify(next));
        if (await state.compareAndSet(key(tenant, source), raw, JSON.stringify(next))) {
          await index(tenant, source);
          return next;
        }
      }
      throw new AppError("aborted", `rule changed concurrently too often; retry [source=${source}]`);
    },
  };
}
