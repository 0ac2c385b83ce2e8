import { createHash, type Hash } from "node:crypto";

/** What one request cost: all its input tokens, and those an earlier request's prefix served. */
export interface PromptCacheUsage {
  inputTokens: number;
  cachedTokens: number;
}

/** Totals over every request measured. */
export interface PromptCacheStats {
  requests: number;
  inputTokens: number;
  cachedTokens: number;
}

/** A simulated vendor prompt cache: prefix matching at message boundaries. */
export interface PromptCache {
  /**
   * Measures a request whose canonical form is `JSON.stringify([...head, messages])` and remembers its
   * prefixes. The prefixes are the canonical forms of `[...head, messages.slice(0, i + 1)]`; the cached
   * share is the longest one byte-identical to a prefix of an earlier request for the same `scope`.
   */
  measure(scope: string, head: unknown[], messages: unknown[]): PromptCacheUsage;
  stats(): PromptCacheStats;
}

/** Tokens of `bytes` bytes of JSON: the usual rough estimate of four bytes a token. */
export const estimateTokens = (bytes: number): number => Math.ceil(bytes / 4);

// cache_control only marks where the vendor may cache; it is not part of the cached bytes (a
// conversation moves its breakpoint forward every turn and still reads the earlier entry).
const canonical = (value: unknown): string => JSON.stringify(value, (key, item: unknown) => (key === "cache_control" ? undefined : item)) ?? "null";

/** Creates an empty simulated prompt cache. */
export function createPromptCache(): PromptCache {
  const known = new Set<string>();
  const totals: PromptCacheStats = { requests: 0, inputTokens: 0, cachedTokens: 0 };
  return {
    measure(scope, head, messages) {
      // The canonical prefix i is `open + "]]"`, and each `open` is a string prefix of the next, so
      // one running hash covers every prefix in a single pass over the bytes.
      const hash: Hash = createHash("sha256").update(`${scope}\n`);
      let open = `[${head.map(canonical).join(",")}${head.length > 0 ? "," : ""}[`;
      let openBytes = Buffer.byteLength(open);
      hash.update(open);
      const digests: string[] = [];
      let cachedBytes = 0;
      messages.forEach((message, index) => {
        open = `${index > 0 ? "," : ""}${canonical(message)}`;
        openBytes += Buffer.byteLength(open);
        hash.update(open);
        const digest = hash.copy().digest("hex");
        digests.push(digest);
        if (known.has(digest)) cachedBytes = openBytes + 2;
      });
      digests.forEach((digest) => known.add(digest));
      const usage = { inputTokens: estimateTokens(openBytes + 2), cachedTokens: cachedBytes === 0 ? 0 : estimateTokens(cachedBytes) };
      totals.requests += 1;
      totals.inputTokens += usage.inputTokens;
      totals.cachedTokens += usage.cachedTokens;
      return usage;
    },
    stats: () => ({ ...totals }),
  };
}
