/** Items in the tracker's answer to a search. */
export const TRACKER_ITEMS = 240;

/** One issue of the tracker's answer (deterministic: the oracle of the tests). */
export interface TrackerItem {
  id: string;
  title: string;
  state: "open" | "closed";
  labels: string[];
  body: string;
}

/**
 * The JSON the test MCP server `tracker` answers to `search` (about 70 KB): a query echo, a
 * total and an `items` array of issues, so Loupe gives it a valid-JSON view with JSON-pointer
 * continuations.
 */
export function trackerAnswer(query: string): { query: string; total: number; items: TrackerItem[] } {
  const items = Array.from({ length: TRACKER_ITEMS }, (_, index): TrackerItem => ({
    id: `ISSUE-${String(index + 1).padStart(4, "0")}`,
    title: `Parser crash ${String(index + 1)} when reading a file with ${query}`,
    state: index % 3 === 0 ? "closed" : "open",
    labels: ["bug", index % 2 === 0 ? "parser" : "io"],
    body: `Steps: open file ${String(index + 1)}, parse it, see the crash. `.repeat(4),
  }));
  return { query, total: items.length, items };
}
