/** A continuation a Loupe notice carries: the arguments of Recover / read_result. */
export type Continuation = Record<string, unknown>;

/** The JSON object that starts at `text[start]` (a `{`), or undefined when it is not one. */
function objectAt(text: string, start: number): Continuation | undefined {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, index + 1)) as Continuation;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Every continuation in a tool result as a model reads it: the JSON after `recover with ` (a
 * view's omission notice) or `read_result ` (a numbered read's notice), in order.
 */
export function continuationsIn(text: string): Continuation[] {
  const found: Continuation[] = [];
  for (const match of text.matchAll(/(?:recover with|read_result) \{/g)) {
    const value = objectAt(text, match.index + match[0].length - 1);
    if (value !== undefined && typeof value["result_id"] === "string") found.push(value);
  }
  return found;
}

/** The lines of a text that are Loupe's notices (`[loupe] …` or `[loupe: …]`). */
export function loupeNotices(text: string): string[] {
  return text.split("\n").filter((line) => line.startsWith("[loupe"));
}
