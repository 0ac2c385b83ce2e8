/** One JSONL line as a JSON object; undefined when it is not one (cut at a read boundary, or not JSON). */
export function jsonObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    // A line cut at a read boundary, or not JSON: skipped.
    return undefined;
  }
}

/** The JSON objects of a JSONL transcript, in order; lines that are not one are skipped. */
export function jsonObjects(text: string): Record<string, unknown>[] {
  return text.split("\n").flatMap((line): Record<string, unknown>[] => {
    const object = jsonObject(line);
    return object === undefined ? [] : [object];
  });
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
