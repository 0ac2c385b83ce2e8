/** The most of an intent Loupe uses (ProjectRequest.intent): 16 KiB of UTF-8. */
export const MAX_INTENT_BYTES = 16 * 1024;

const encoder = new TextEncoder();

/** `text` cut to at most `maxBytes` of UTF-8, at a code-point boundary. */
function cutToBytes(text: string, maxBytes: number): string {
  if (encoder.encode(text).byteLength <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const point of text) {
    const size = encoder.encode(point).byteLength;
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += point.length;
  }
  return text.slice(0, end);
}

/**
 * The intent of a tool call as Loupe reads it (`ProjectRequest.intent`): the task (the first user
 * message) and the assistant text that asked for the call, as the runtime has them, within 16 KiB.
 * The asking text, nearer the question the result answers, keeps its room first; the task gets what
 * is left, at least a quarter. Empty parts are left out; "" when both are empty.
 */
export function composeIntent(task: string, asking: string): string {
  const parts = [task.trim(), asking.trim()];
  const [taskText = "", askingText = ""] = parts;
  if (taskText === "" && askingText === "") return "";
  const separator = taskText !== "" && askingText !== "" ? "\n\n" : "";
  const askingBytes = Math.min(encoder.encode(askingText).byteLength, MAX_INTENT_BYTES - (taskText === "" ? 0 : MAX_INTENT_BYTES / 4));
  const asked = cutToBytes(askingText, askingBytes);
  const task_ = cutToBytes(taskText, MAX_INTENT_BYTES - encoder.encode(asked).byteLength - separator.length);
  return `${task_}${separator}${asked}`;
}
