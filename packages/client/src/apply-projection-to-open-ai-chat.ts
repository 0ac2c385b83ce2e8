import type { Part } from "@loupe/proto";
import type { OpenAiToolMessage } from "./open-ai-types.js";
import { mediaNotice } from "./view-blocks.js";

/**
 * Returns a new `role: "tool"` message with the same `tool_call_id` (and every
 * other field) whose content is the projection's view. Chat tool messages
 * carry only text: media become notice lines naming them. A string content
 * stays a string (parts joined with `\n`); an array becomes one text part per
 * view part, in order. The input is not changed.
 */
export function applyProjectionToOpenAiChat(toolMessage: OpenAiToolMessage, projectResponse: { readonly parts: readonly Part[] }): OpenAiToolMessage {
  const texts = projectResponse.parts.map((part) => {
    switch (part.content.case) {
      case "text":
      case "json":
        return part.content.value;
      case "media":
        return mediaNotice(part.content.value);
      case undefined:
        return "";
    }
  });
  const content = typeof toolMessage.content === "string" ? texts.join("\n") : texts.map((text) => ({ type: "text" as const, text }));
  return { ...toolMessage, content };
}
