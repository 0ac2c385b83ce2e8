import type { Part } from "@loupe/proto";
import type { AnthropicDocumentBlock, AnthropicImageBlock, AnthropicTextBlock, AnthropicToolResultBlock } from "@loupe/conversation";
import { isTextOnly, viewPieces } from "./view-blocks.js";

/**
 * Returns a new `tool_result` block whose content is the projection's view,
 * keeping `tool_use_id`, `is_error` and every other field of `toolResultBlock`
 * (e.g. `cache_control`). When the original content was a string (or absent)
 * and the view is all text, the content stays a string (parts joined with
 * `\n`); otherwise it is blocks in the view's order: a text block per text
 * part, an image block per image medium (base64 data or url), a document
 * block per PDF or plain-text file, and a notice text block for a medium
 * Anthropic cannot carry (audio, other files), naming the result Loupe saved
 * it under. The input is not changed.
 */
export function applyProjectionToAnthropic(
  toolResultBlock: AnthropicToolResultBlock,
  projectResponse: { readonly parts: readonly Part[] },
): AnthropicToolResultBlock {
  const pieces = viewPieces(projectResponse.parts);
  if (typeof toolResultBlock.content !== "object" && isTextOnly(pieces)) {
    return { ...toolResultBlock, content: pieces.map((piece) => piece.text).join("\n") };
  }
  const content = pieces.map((piece): AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock => {
    switch (piece.kind) {
      case "text":
        return { type: "text", text: piece.text };
      case "image":
        return { type: "image", source: { type: "base64", media_type: piece.mediaType, data: piece.data } };
      case "image-url":
        return { type: "image", source: { type: "url", url: piece.url } };
      case "pdf":
        return {
          type: "document",
          source: { type: "base64", media_type: "application/pdf", data: piece.data },
          ...(piece.title === "" ? {} : { title: piece.title }),
        };
      case "plain-document":
        return {
          type: "document",
          source: { type: "text", media_type: "text/plain", data: piece.text },
          ...(piece.title === "" ? {} : { title: piece.title }),
        };
    }
  });
  return { ...toolResultBlock, content };
}
