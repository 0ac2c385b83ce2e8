import type { MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import type { PartSchema, ToolResultSchema } from "@loupe/proto";
import type { AnthropicToolResultBlock, AnthropicToolUseBlock } from "@loupe/conversation";

type PartInit = MessageInitShape<typeof PartSchema>;

/**
 * The Loupe parts of an Anthropic tool_result's content, in order: a string
 * is one text part, `text` blocks are text parts, `image` blocks are media
 * (base64 data decoded, or the url as uri), `document` blocks are media (a
 * base64 PDF, or plain text as text/plain bytes; the title as the name).
 * Absent content is no part.
 *
 * @throws AppError `invalid_argument` for any other block type (it could not be given back)
 */
export function partsFromAnthropicContent(content: AnthropicToolResultBlock["content"]): PartInit[] {
  if (content === undefined) return [];
  if (typeof content === "string") return [{ content: { case: "text", value: content } }];
  return content.map((block): PartInit => {
    if (block.type === "text" && typeof block["text"] === "string") return { content: { case: "text", value: block["text"] } };
    if (block.type === "image") {
      const source = block["source"] as { type?: string; media_type?: string; data?: string; url?: string } | undefined;
      if (source?.type === "base64" && typeof source.data === "string") {
        return { content: { case: "media", value: { mimeType: source.media_type ?? "", data: Buffer.from(source.data, "base64") } } };
      }
      if (source?.type === "url" && typeof source.url === "string") return { content: { case: "media", value: { uri: source.url } } };
    }
    if (block.type === "document") {
      const source = block["source"] as { type?: string; media_type?: string; data?: string } | undefined;
      const name = typeof block["title"] === "string" ? block["title"] : "";
      if (source?.type === "base64" && typeof source.data === "string") {
        return { content: { case: "media", value: { mimeType: source.media_type ?? "application/pdf", data: Buffer.from(source.data, "base64"), name } } };
      }
      if (source?.type === "text" && typeof source.data === "string") {
        return { content: { case: "media", value: { mimeType: "text/plain", data: Buffer.from(source.data, "utf8"), name } } };
      }
    }
    throw new AppError("invalid_argument", `unsupported tool_result content block [type=${block.type}]`);
  });
}

/**
 * Builds the ToolResult init for Project from an Anthropic `tool_use` block and
 * its `tool_result` block: tool_use_id, tool_name, args_json (the input as
 * JSON), parts (see {@link partsFromAnthropicContent}) and is_error.
 *
 * @throws AppError `invalid_argument` when the ids differ or a block type is unsupported
 */
export function toolResultFromAnthropic(toolUse: AnthropicToolUseBlock, toolResult: AnthropicToolResultBlock): MessageInitShape<typeof ToolResultSchema> {
  if (toolUse.id !== toolResult.tool_use_id) {
    throw new AppError("invalid_argument", `tool_result does not answer this tool_use [tool_use_id=${toolResult.tool_use_id}, id=${toolUse.id}]`);
  }
  return {
    toolUseId: toolResult.tool_use_id,
    toolName: toolUse.name,
    argsJson: JSON.stringify(toolUse.input ?? {}),
    parts: partsFromAnthropicContent(toolResult.content),
    isError: toolResult.is_error === true,
  };
}
