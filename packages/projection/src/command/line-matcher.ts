/**
 * A test of one line against an ordered table of patterns, answering the tag
 * of the first that matches (in table order), or undefined. Anchored patterns
 * ("^…") are joined into one regex tried at the line's start only, the others
 * into a second one, so a line that matches nothing costs two regex calls
 * however long the table. Patterns must have no flags.
 */
export function createLineMatcher<Tag>(table: ReadonlyArray<readonly [Tag, RegExp]>): (text: string) => Tag | undefined {
  const anchored = joined(
    table.map(([tag, pattern], order) => ({ tag, pattern, order })).filter((entry) => entry.pattern.source.startsWith("^")),
    true,
  );
  const floating = joined(
    table.map(([tag, pattern], order) => ({ tag, pattern, order })).filter((entry) => !entry.pattern.source.startsWith("^")),
    false,
  );
  return (text) => {
    const first = anchored.find(text);
    // A floating pattern earlier in the table wins over a later anchored one.
    const second = first === undefined || floating.orders.some((order) => order < first.order) ? floating.find(text) : undefined;
    if (first === undefined) return second?.tag;
    return second !== undefined && second.order < first.order ? second.tag : first.tag;
  };
}

interface Entry<Tag> {
  tag: Tag;
  pattern: RegExp;
  order: number;
}

function captureCount(pattern: RegExp): number {
  return (new RegExp(`(?:${pattern.source})|`).exec("")?.length ?? 1) - 1;
}

// One regex over the entries, each wrapped in a capture group whose number is remembered.
function joined<Tag>(entries: ReadonlyArray<Entry<Tag>>, anchored: boolean): { orders: number[]; find: (text: string) => Entry<Tag> | undefined } {
  if (entries.length === 0) return { orders: [], find: () => undefined };
  const groups: number[] = [];
  let next = 1;
  const sources = entries.map((entry) => {
    groups.push(next);
    next += 1 + captureCount(entry.pattern);
    return `(${anchored ? entry.pattern.source.slice(1) : entry.pattern.source})`;
  });
  const regex = new RegExp(anchored ? `^(?:${sources.join("|")})` : sources.join("|"));
  return {
    orders: entries.map((entry) => entry.order),
    find: (text) => {
      const match = regex.exec(text);
      if (match === null) return undefined;
      const index = groups.findIndex((group) => match[group] !== undefined);
      return entries[index];
    },
  };
}
