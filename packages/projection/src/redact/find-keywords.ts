/** Keywords made ready once: lowercased and distinct, escaped, with the alternations built so far. */
interface Prepared {
  keywords: readonly string[];
  escaped: readonly string[];
  indexOf: ReadonlyMap<string, number>;
  /** One case-insensitive alternation per set of keywords still sought (a string of "1"/"0", one per keyword). */
  alternations: Map<string, RegExp>;
}

// Keyword lists seen (the default rules' and each custom set's), by their keywords joined.
const PREPARED = new Map<string, Prepared>();
const MAX_PREPARED_LISTS = 64;
const MAX_ALTERNATIONS = 256;

function prepare(keywords: readonly string[]): Prepared {
  const key = keywords.join("\u0000");
  const known = PREPARED.get(key);
  if (known !== undefined) return known;
  const distinct = [...new Set(keywords.map((keyword) => keyword.toLowerCase()))];
  const prepared: Prepared = {
    keywords: distinct,
    escaped: distinct.map(escapeRegExp),
    indexOf: new Map(distinct.map((keyword, index) => [keyword, index])),
    alternations: new Map(),
  };
  if (PREPARED.size >= MAX_PREPARED_LISTS) PREPARED.clear();
  PREPARED.set(key, prepared);
  return prepared;
}

function alternationOf(prepared: Prepared, remaining: readonly boolean[]): RegExp {
  const key = remaining.map((sought) => (sought ? "1" : "0")).join("");
  const known = prepared.alternations.get(key);
  if (known !== undefined) return known;
  const search = new RegExp(prepared.escaped.filter((_, index) => remaining[index] === true).join("|"), "gi");
  if (prepared.alternations.size >= MAX_ALTERNATIONS) prepared.alternations.clear();
  prepared.alternations.set(key, search);
  return search;
}

/**
 * Which of `keywords` occur in `text`, compared case-insensitively; returns
 * them lowercased. One pass: a single case-insensitive alternation is
 * searched from where the last hit was, and every keyword found is dropped
 * from it, so the text is scanned once and a frequent keyword costs one hit,
 * not one per occurrence. The keywords are lowercased and escaped once per
 * list, and each alternation is built once per set of keywords still sought
 * (calls with the same rules find the same sets).
 * @internal
 */
export function findKeywords(text: string, keywords: readonly string[]): Set<string> {
  const prepared = prepare(keywords);
  const remaining = prepared.keywords.map(() => true);
  let left = remaining.length;
  const found = new Set<string>();
  let from = 0;
  while (left > 0) {
    const search = alternationOf(prepared, remaining);
    search.lastIndex = from;
    const hit = search.exec(text);
    if (hit === null) break;
    const index = prepared.indexOf.get(hit[0].toLowerCase()) ?? matchedIndex(prepared, remaining, hit[0]);
    if (index === undefined) {
      // Not one of the keywords sought (cannot happen): go on past it rather than find it again.
      from = hit.index + 1;
      continue;
    }
    found.add(prepared.keywords[index] ?? "");
    remaining[index] = false;
    left--;
    // Search again from the same place: another keyword may start there too ("sk-" and "sk-ant-").
    from = hit.index;
  }
  return found;
}

/** The keyword still sought that `matched` is, ignoring case as the alternation does (when lowercasing differs). */
function matchedIndex(prepared: Prepared, remaining: readonly boolean[], matched: string): number | undefined {
  const index = prepared.escaped.findIndex((escaped, at) => remaining[at] === true && new RegExp(`^(?:${escaped})$`, "i").test(matched));
  return index === -1 ? undefined : index;
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
