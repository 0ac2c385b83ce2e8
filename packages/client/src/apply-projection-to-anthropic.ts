import type { Part } from "@loupe/proto";
import type { AnthropicImageBlock, AnthropicTextBlock, AnthropicToolResultBlock } from "./anthropic-types.js";
import { isTextOnly, viewPieces } from "./view-blocks.js";

/**
 * Returns a new `tool_result` block whose content is the projection's view,
 * keeping `tool_use_id`, `is_error` and every other field of `toolResultBlock`
 * (e.g. `cache_control`). When the original content was a string (or absent)
 * and the view is all text, the content stays a string (parts joined with
 * `\n`); otherwise it is blocks in the view's order: a text block per text
 * part, an image block per image medium (base64 data or url), and a notice
 * text block for a medium Anthropic cannot carry. The input is not changed.
 */
export function applyProjectionToAnthropic(toolResultBlock: AnthropicToolResultBlock, projectResponse: { readonly parts: readonly Part[] }): AnthropicToolResultBlock {
  const pieces = viewPieces(projectResponse.parts);
  if (typeof toolResultBlock.content !== "object" && isTextOnly(pieces)) {
    return { ...toolResultBlock, content: pieces.map((piece) => piece.text).join("\n") };
  }
  const content = pieces.map((piece): AnthropicTextBlock | AnthropicImageBlock => {
    switch (piece.kind) {
      case "text":
        return { type: "text", text: piece.text };
      case "image":
        return { type: "image", source: { type: "base64", media_type: piece.mediaType, data: piece.data } };
      case "image-url":
        return { type: "image", source: { type: "url", url: piece.url } };
    }
  });
  return { ...toolResultBlock, content };
}
