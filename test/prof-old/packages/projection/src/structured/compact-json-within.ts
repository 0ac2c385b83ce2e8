import { utf8Length } from "../utf8-length.js";

/**
 * The compact JSON text of `value` (JSON.stringify, no whitespace) when it is
 * at most `maxBytes` UTF-8 bytes, else undefined. A walk that stops early
 * bounds the cost on huge values: it never serializes more than about
 * `maxBytes` of input. With `refuseKey`, a value holding an object member of
 * that name anywhere is refused too.
 */
export function compactJsonWithin(value: unknown, maxBytes: number, refuseKey?: string): string | undefined {
  let budget = maxBytes;
  const stack: unknown[] = [value];
  // Lower bound on the serialized size: every string costs at least its length plus quotes.
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === "string") budget -= current.length + 2;
    else if (Array.isArray(current)) {
      budget -= 1 + current.length;
      if (budget < 0) return undefined;
      for (const item of current) stack.push(item);
    } else if (typeof current === "object" && current !== null) {
      const keys = Object.keys(current);
      if (refuseKey !== undefined && Object.prototype.hasOwnProperty.call(current, refuseKey)) return undefined;
      budget -= 1 + keys.length;
      for (const key of keys) {
        budget -= key.length + 3;
        if (budget < 0) return undefined;
        stack.push((current as Record<string, unknown>)[key]);
      }
    } else budget -= 1;
    if (budget < 0) return undefined;
  }
  const text = JSON.stringify(value) ?? "null";
  return utf8Length(text) <= maxBytes ? text : undefined;
}
