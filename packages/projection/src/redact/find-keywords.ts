/**
 * Which of `keywords` occur in `text`, compared case-insensitively; returns
 * them lowercased. One pass: a single case-insensitive alternation is
 * searched from where the last hit was, and every keyword found is dropped
 * from it, so the text is scanned once and a frequent keyword costs one hit,
 * not one per occurrence.
 * @internal
 */
export function findKeywords(text: string, keywords: readonly string[]): Set<string> {
  const remaining = new Set(keywords.map((keyword) => keyword.toLowerCase()));
  const found = new Set<string>();
  let from = 0;
  while (remaining.size > 0) {
    const search = new RegExp([...remaining].map(escapeRegExp).join("|"), "gi");
    search.lastIndex = from;
    const hit = search.exec(text);
    if (hit === null) break;
    const keyword = hit[0].toLowerCase();
    found.add(keyword);
    remaining.delete(keyword);
    // Search again from the same place: another keyword may start there too ("sk-" and "sk-ant-").
    from = hit.index;
  }
  return found;
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}
