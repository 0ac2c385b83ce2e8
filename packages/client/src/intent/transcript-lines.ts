/** The JSON objects of a JSONL transcript, in order; lines that are not one (cut at a read boundary, or not JSON) are skipped. */
export function jsonObjects(text: string): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) objects.push(value as Record<string, unknown>);
    } catch {
      // A line cut at a read boundary, or not JSON: skipped.
    }
  }
  return objects;
}

/** The `text` of each part of a message's content (`[{text}, …]`), joined by newlines; other parts are left out. */
export function textOfParts(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  return parts
    .flatMap((part: unknown) => {
      const text = typeof part === "object" && part !== null ? (part as { text?: unknown }).text : undefined;
      return typeof text === "string" ? [text] : [];
    })
    .join("\n");
}

/** What a runtime itself puts in a user message (its environment, its session context): one `<tag>…</tag>` block, not the task. */
export const INJECTED_CONTEXT = /^\s*<([a-z_]+)>[\s\S]*<\/\1>\s*$/;
