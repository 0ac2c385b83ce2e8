import type { TurnPart, TurnToolCall, TurnToolResult } from "../turn.js";

/** Placeholder for a message or tool result that would otherwise be empty (vendors reject empty content). */
export const EMPTY_CONTENT_TEXT = "(empty)";

/** Placeholder for a tool result without output. */
export const NO_OUTPUT_TEXT = "(no output)";

/** Placeholder user message put before a history that starts with an assistant turn. */
export const HISTORY_START_TEXT = "[history starts mid-session]";

/** Image types the vendors accept inline as base64. */
const INLINE_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** An inline image a vendor accepts as a base64 image block. */
export type InlineImagePart = { type: "media"; mimeType: string; data: string };

/** True when `part` is a base64 image of a type the vendors accept inline. */
export function isInlineImage(part: TurnPart): part is TurnPart & InlineImagePart {
  return part.type === "media" && INLINE_IMAGE_TYPES.has(part.mimeType) && part.data !== undefined && part.data !== "";
}

/** One line naming a medium that is not sent inline: `[media <mimeType> <uri or name>]`. */
export function mediaLine(part: TurnPart & { type: "media" }): string {
  const where = part.uri ?? part.name ?? (part.data !== undefined ? "(inline)" : "(no data)");
  return `[media ${part.mimeType} ${where}]`;
}

/** A part as text: text as is, JSON as its text, media as a {@link mediaLine}. */
export function partText(part: TurnPart): string {
  if (part.type === "text") return part.text;
  if (part.type === "json") return part.json;
  return mediaLine(part);
}

/** True when `text` holds something besides whitespace (vendors reject blank text blocks). */
export function hasText(text: string): boolean {
  return text.trim() !== "";
}

/** The parts as text lines, blank ones dropped. */
export function partsText(parts: readonly TurnPart[]): string {
  return parts.map(partText).filter(hasText).join("\n");
}

/** A tool result whose call is not in the message right before it, as plain text. */
export function orphanResultText(result: TurnToolResult): string {
  const body = partsText(result.parts);
  return `[tool result ${result.toolUseId} from ${result.toolName}]\n${body === "" ? NO_OUTPUT_TEXT : body}`;
}

/** A tool call no result answers right after it, as plain text (vendors reject unanswered calls). */
export function unansweredCallText(call: TurnToolCall): string {
  return `[tool call ${call.toolUseId} ${call.name}]${call.argsJson === "" ? "" : `\n${call.argsJson}`}`;
}
