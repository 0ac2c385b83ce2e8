const EDGE_CHARS = 64;

/**
 * True when the text opens like a JSON object or array and closes like one (whitespace aside):
 * a cheap test, reading only its two ends, before anything parses it.
 */
export function looksLikeJsonValue(text: string): boolean {
  return /^\s*[[{]/.test(text.slice(0, EDGE_CHARS)) && /[\]}]\s*$/.test(text.slice(-EDGE_CHARS));
}
