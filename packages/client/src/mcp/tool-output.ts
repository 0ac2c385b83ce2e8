import type { FieldViewLine } from "./view-lines.js";
import { isAppError } from "@loupe/errors";
import type { Media, Part } from "@loupe/proto";
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

/** What every tool of one server shares: where errors go, the server's name, and the session it serves. */
export interface McpToolContext {
  onError: McpToolErrorSink | undefined;
  /** The name the server announces (runtimes prefix its tools with it). */
  serverName: string;
  /** The session the server was started for: history tools use it when a call names none. */
  sessionId: string | undefined;
  /** The field views read_result's description lists (RulesService.ListViews when the server started). */
  views?: readonly FieldViewLine[];
}

/**
 * How a model finds one of the server's tools whatever prefix its runtime adds: `read_result
 * (tool of the "loupe" MCP server, e.g. mcp__loupe__read_result)`.
 */
export function toolReference(context: Pick<McpToolContext, "serverName">, tool: string): string {
  return `${tool} (tool of the ${JSON.stringify(context.serverName)} MCP server, e.g. mcp__${context.serverName}__${tool})`;
}

/** The line that tells the model the exact call that continues: `next: call TOOL (…) with {…}`. */
export function nextCall(context: Pick<McpToolContext, "serverName">, tool: string, args: Record<string, string | number | undefined>): string {
  return `next: call ${toolReference(context, tool)} with ${JSON.stringify(definedFields(args))}`;
}

/**
 * A medium with its bytes as an MCP content block: an image or audio block for images and audio,
 * an embedded resource (`loupe://result/<id>`) for any other file; undefined without bytes.
 */
export function mediaContent(media: Media): CallToolResult["content"][number] | undefined {
  if (media.data.byteLength === 0) return undefined;
  const data = Buffer.from(media.data).toString("base64");
  if (media.mimeType.startsWith("image/")) return { type: "image", data, mimeType: media.mimeType };
  if (media.mimeType.startsWith("audio/")) return { type: "audio", data, mimeType: media.mimeType };
  return { type: "resource", resource: { uri: `loupe://result/${media.resultId || "unsaved"}`, mimeType: media.mimeType, blob: data } };
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
