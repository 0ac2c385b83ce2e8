import { unwrapShellCommand } from "./loupe-wrapper.js";

/** The most of an intent Loupe uses (ProjectRequest.intent): 16 KiB of UTF-8. */
export const MAX_INTENT_BYTES = 16 * 1024;

/** The most of the assistant's earlier messages an intent keeps: their last 4 KiB of UTF-8. */
export const MAX_EARLIER_BYTES = 4 * 1024;

/** The most earlier messages a way in renders for an intent (their last 4 KiB are kept of them). */
export const MAX_EARLIER_MESSAGES = 32;

// The task keeps at least this much when the asking text is long.
const TASK_FLOOR_BYTES = MAX_INTENT_BYTES / 4;
const SEPARATOR = "\n\n";

const encoder = new TextEncoder();
// Anything but printable ASCII, tabs and newlines (those are one byte a character).
const NOT_ASCII = /[^\t\n\r\x20-\x7e]/;
// ASCII text (most of an intent) is as many bytes as characters: no encoding needed to tell.
const bytesOf = (text: string): number => (NOT_ASCII.test(text) ? encoder.encode(text).byteLength : text.length);

// UTF-8 bytes of one UTF-16 unit standing alone (a lone surrogate is written as U+FFFD: 3); a surrogate pair is 4.
const unitBytes = (code: number): number => (code < 0x80 ? 1 : code < 0x800 ? 2 : 3);
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** `text` cut to at most `maxBytes` of UTF-8, at a code-point boundary. */
function cutToBytes(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || bytesOf(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    const pair = isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(end + 1));
    const size = pair ? 4 : unitBytes(code);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += pair ? 2 : 1;
  }
  return text.slice(0, end);
}

/** The end of `text` within `maxBytes` of UTF-8, starting after a whitespace so that no word is cut. */
function endWithinBytes(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || bytesOf(text) <= maxBytes) return text;
  const tail = text.slice(-maxBytes);
  // An ASCII end is as many bytes as characters; otherwise count back code point by code point.
  let start = text.length - tail.length;
  if (NOT_ASCII.test(tail)) {
    let bytes = 0;
    start = text.length;
    while (start > 0) {
      const code = text.charCodeAt(start - 1);
      const pair = isLowSurrogate(code) && start > 1 && isHighSurrogate(text.charCodeAt(start - 2));
      const size = pair ? 4 : unitBytes(code);
      if (bytes + size > maxBytes) break;
      bytes += size;
      start -= pair ? 2 : 1;
    }
  }
  const kept = text.slice(start);
  const space = kept.search(/\s/);
  return space < 0 ? "" : kept.slice(space).trimStart();
}

/**
 * The last non-empty messages of `earlier`, unwrapped (`unwrapShellCommand`) and trimmed, oldest first: as
 * many as can reach MAX_EARLIER_BYTES (a character is at least one byte), so no more is joined than is kept.
 */
function lastMessages(earlier: readonly string[]): string[] {
  const kept: string[] = [];
  let chars = 0;
  for (let index = earlier.length - 1; index >= 0 && chars < MAX_EARLIER_BYTES; index--) {
    const text = unwrapShellCommand(earlier[index] ?? "").trim();
    if (text === "") continue;
    kept.push(text);
    chars += text.length + SEPARATOR.length;
  }
  return kept.reverse();
}

/**
 * The intent of a tool call as Loupe reads it (`ProjectRequest.intent`), within 16 KiB: what the
 * assistant said and called before (`earlier`: its earlier messages with their calls, oldest first;
 * their last 4 KiB), then the task (the first user message), then the assistant text that asked for
 * the call. The task and the asking text come last because the projection weighs an intent's last
 * 2,500 characters most: the question this result answers, not the steps already taken (measured:
 * earlier messages after the task pulled searches' views toward places already visited). The asking
 * text keeps its room first; the task gets what is left, at least a quarter when the asking text is
 * long. A command Loupe's pre-tool hook rewrote, in an earlier message, is read as the agent wrote it
 * (`unwrapShellCommand`). Empty parts are left out; "" when all are.
 */
export function composeIntent(task: string, asking: string, earlier: readonly string[] = []): string {
  const taskText = task.trim();
  const askingText = asking.trim();
  const earlierText = lastMessages(earlier).join(SEPARATOR);
  const floors = (taskText === "" ? 0 : TASK_FLOOR_BYTES) + (earlierText === "" ? 0 : MAX_EARLIER_BYTES) + 2 * SEPARATOR.length;
  const asked = cutToBytes(askingText, MAX_INTENT_BYTES - floors);
  const before = endWithinBytes(earlierText, Math.min(MAX_EARLIER_BYTES, MAX_INTENT_BYTES - bytesOf(asked) - TASK_FLOOR_BYTES));
  const separators = SEPARATOR.length * [before, asked].filter((text) => text !== "").length;
  const taskKept = cutToBytes(taskText, MAX_INTENT_BYTES - bytesOf(asked) - bytesOf(before) - separators);
  return [before, taskKept, asked].filter((text) => text !== "").join(SEPARATOR);
}

/**
 * An assistant message as the intent's earlier messages carry it (`composeIntent`'s `earlier`): what it
 * said, then each of its calls (as `callText` renders them), one a line; blank parts left out.
 */
export function earlierMessage(said: string, calls: readonly string[]): string {
  return [said, ...calls].filter((part) => part.trim() !== "").join("\n");
}

// One call's arguments as an intent line: its name, then the text of its arguments' values.
const MAX_CALL_CHARS = 2000;

/**
 * A tool call as the intent's earlier messages carry it: `[name] ` and the text of its arguments
 * (string and number values, nested ones too, in order; a JSON string is parsed first; a command
 * Loupe's pre-tool hook rewrote is read as the agent wrote it), at most 2,000 characters. The paths,
 * patterns and code an agent called with are what it looks for next.
 */
export function callText(name: string, input: unknown): string {
  return `[${name}] ${callValues(input).join(" ")}`.slice(0, MAX_CALL_CHARS).trimEnd();
}

/**
 * The text values of a call's arguments, in order: string and number values, nested ones too (four levels);
 * a JSON string parsed first; a command Loupe's pre-tool hook rewrote read as the agent wrote it.
 */
export function callValues(input: unknown): string[] {
  const values: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === "string") values.push(unwrapShellCommand(value));
    else if (typeof value === "number") values.push(String(value));
    else if (depth < 4 && Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else if (depth < 4 && typeof value === "object" && value !== null) for (const item of Object.values(value)) visit(item, depth + 1);
  };
  visit(typeof input === "string" ? parsedOrText(input) : input, 0);
  return values;
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
