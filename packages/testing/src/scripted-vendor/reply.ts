/** An answer of the scripted vendor: a status, a content type and the body in the pieces it is written in. */
export interface VendorReply {
  status: number;
  contentType: string;
  /** Written one at a time (an event stream's events arrive as separate writes). */
  chunks: string[];
}

/** What an API renderer needs besides the action. */
export interface ReplyContext {
  model: string;
  /** A number unique to this answer within the server (ids are built from it). */
  serial: number;
  /** The estimated prompt size in tokens (for usage fields). */
  inputTokens: number;
}

/** A JSON answer. */
export function jsonReply(value: unknown, status = 200): VendorReply {
  return { status, contentType: "application/json", chunks: [JSON.stringify(value)] };
}

/** An event stream answer from its events (already framed, see {@link sseEvent}). */
export function sseReply(events: string[]): VendorReply {
  return { status: 200, contentType: "text/event-stream", chunks: events };
}

/** One server-sent event: `event: <name>` (when named) and one `data:` line of JSON. */
export function sseEvent(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return event === undefined ? `data: ${payload}\n\n` : `event: ${event}\ndata: ${payload}\n\n`;
}

/** A rough token count (4 bytes a token), enough for usage fields and `count_tokens`. */
export function estimateTokenCount(text: string): number {
  return Math.max(1, Math.ceil(Buffer.byteLength(text) / 4));
}
