/**
 * Keywords made ready once, for every text searched with them (`findKeywords`): lowercased and distinct,
 * escaped, with the alternations built so far. Made from a rule set when it is first used (see
 * redactSecrets); it only remembers patterns, so a search answers the same whatever it searched before.
 * @internal
 */
export interface KeywordSearch {
  readonly keywords: readonly string[];
  readonly escaped: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  /** One case-insensitive alternation per set of keywords still sought (a string of "1"/"0", one per keyword). */
  readonly alternations: Map<string, RegExp>;
}

const MAX_ALTERNATIONS = 256;

/** `keywords` made ready for `findKeywords`. @internal */
export function keywordSearch(keywords: readonly string[]): KeywordSearch {
  const distinct = [...new Set(keywords.map((keyword) => keyword.toLowerCase()))];
  return {
    keywords: distinct,
    escaped: distinct.map(escapeRegExp),
    indexOf: new Map(distinct.map((keyword, index) => [keyword, index])),
    alternations: new Map(),
  };
}

function alternationOf(prepared: KeywordSearch, remaining: readonly boolean[]): RegExp {
  const key = remaining.map((sought) => (sought ? "1" : "0")).join("");
  const known = prepared.alternations.get(key);
  if (known !== undefined) return known;
  const search = new RegExp(prepared.escaped.filter((_, index) => remaining[index] === true).join("|"), "gi");
  if (prepared.alternations.size >= MAX_ALTERNATIONS) prepared.alternations.clear();
  prepared.alternations.set(key, search);
  return search;
}

/**
 * Which of the search's keywords occur in `text`, compared case-insensitively; returns
 * them lowercased. One pass: a single case-insensitive alternation is
 * searched from where the last hit was, and every keyword found is dropped
 * from it, so the text is scanned once and a frequent keyword costs one hit,
 * not one per occurrence. Each alternation is built once per set of keywords
 * still sought and kept in the search (texts searched with the same rules
 * find the same sets).
 * @internal
 */
export function findKeywords(text: string, prepared: KeywordSearch): Set<string> {
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
function matchedIndex(prepared: KeywordSearch, remaining: readonly boolean[], matched: string): number | undefined {
  const index = prepared.escaped.findIndex((escaped, at) => remaining[at] === true && new RegExp(`^(?:${escaped})$`, "i").test(matched));
  return index === -1 ? undefined : index;
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
