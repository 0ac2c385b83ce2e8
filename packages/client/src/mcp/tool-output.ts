import { isAppError } from "@loupe/errors";
import type { Part } from "@loupe/proto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mediaNotice } from "../view-blocks.js";

/** Sees errors of a tool call that are not a Loupe answer (not an AppError, or `internal`). */
export type McpToolErrorSink = (error: unknown, tool: string) => void;

/** A tool answer of text blocks; empty blocks are left out (at least one block remains). */
export function textResult(...blocks: string[]): CallToolResult {
  const texts = blocks.filter((text) => text !== "");
  return { content: (texts.length === 0 ? [""] : texts).map((text) => ({ type: "text", text })) };
}

/** A tool error the model reads (`isError: true`). */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * Runs one tool call. An AppError answers `code: message` as a tool error; anything
 * else answers `internal: internal error` (its message may hold internals) and goes to `onError`.
 */
export async function runTool(tool: string, onError: McpToolErrorSink | undefined, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (isAppError(error) && error.code !== "internal") return errorResult(`${error.code}: ${error.message}`);
    onError?.(error, tool);
    return errorResult(isAppError(error) ? `internal: ${error.message}` : "internal: internal error");
  }
}

/** The fields of `value` that are set (for proto inits under exactOptionalPropertyTypes). */
export function definedFields<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** The line that tells the model the exact call that continues: `next: call TOOL with {…}`. */
export function nextCall(tool: string, args: Record<string, string | number | undefined>): string {
  return `next: call ${tool} with ${JSON.stringify(definedFields(args))}`;
}

/** The text of parts, in order: text and json as they are, media as a notice line. */
export function textOfPartsWithMedia(parts: readonly Part[]): string {
  let text = "";
  for (const part of parts) {
    if (part.content.case === "text" || part.content.case === "json") text += part.content.value;
    else if (part.content.case === "media") text += `${text === "" || text.endsWith("\n") ? "" : "\n"}${mediaNotice(part.content.value)}\n`;
  }
  return text;
}
