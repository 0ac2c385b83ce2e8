import { HistoryFormat } from "@loupe/proto";

/** What an image is replaced by: a line of text, or a thumbnail and a line of text. */
export type ImageReplacement = { text: string } | { text: string; thumbnail: { mediaType: string; data: string } };

/** One inline (base64) image in a vendor request history, oldest first, with a way to replace it. */
export interface HistoryImage {
  mediaType: string;
  /** The image's bytes, base64. */
  data: string;
  /** Replaces the image where it was found (the surrounding array gets one or two blocks in its place). */
  replace(replacement: ImageReplacement): void;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const stringOf = (value: unknown): string => (typeof value === "string" ? value : "");

/** Where an image block sits: it is looked up again when replaced, so earlier splices in the same array never misplace it. */
interface Slot {
  array: unknown[];
  block: unknown;
}

function slotReplace(slot: Slot, blocks: (replacement: ImageReplacement) => unknown[]): (replacement: ImageReplacement) => void {
  return (replacement) => {
    const index = slot.array.indexOf(slot.block);
    if (index >= 0) slot.array.splice(index, 1, ...blocks(replacement));
  };
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+);base64,([A-Za-z0-9+/=]+)$/;

// Anthropic: image blocks in message content and inside tool_result content.
function anthropicImages(body: Json): HistoryImage[] {
  const blocks = (replacement: ImageReplacement): unknown[] => [
    ...("thumbnail" in replacement
      ? [{ type: "image", source: { type: "base64", media_type: replacement.thumbnail.mediaType, data: replacement.thumbnail.data } }]
      : []),
    { type: "text", text: replacement.text },
  ];
  const found: HistoryImage[] = [];
  const visit = (array: unknown[]): void => {
    for (const block of array) {
      if (!isObject(block)) continue;
      if (block["type"] === "tool_result") visit(asArray(block["content"]));
      const source = block["source"];
      if (block["type"] === "image" && isObject(source) && source["type"] === "base64" && typeof source["data"] === "string") {
        found.push({ mediaType: stringOf(source["media_type"]), data: source["data"], replace: slotReplace({ array, block }, blocks) });
      }
    }
  };
  for (const message of asArray(body["messages"])) if (isObject(message)) visit(asArray(message["content"]));
  return found;
}

// OpenAI Chat: image_url parts with a data: URL in message content.
function openAiChatImages(body: Json): HistoryImage[] {
  const blocks = (replacement: ImageReplacement): unknown[] => [
    ...("thumbnail" in replacement
      ? [{ type: "image_url", image_url: { url: `data:${replacement.thumbnail.mediaType};base64,${replacement.thumbnail.data}` } }]
      : []),
    { type: "text", text: replacement.text },
  ];
  const found: HistoryImage[] = [];
  for (const message of asArray(body["messages"])) {
    if (!isObject(message)) continue;
    const array = asArray(message["content"]);
    for (const block of array) {
      const url = isObject(block) && block["type"] === "image_url" && isObject(block["image_url"]) ? block["image_url"]["url"] : undefined;
      const match = typeof url === "string" ? DATA_URL.exec(url) : null;
      if (match?.[1] && match[2]) found.push({ mediaType: match[1], data: match[2], replace: slotReplace({ array, block }, blocks) });
    }
  }
  return found;
}

// OpenAI Responses: input_image parts with a data: URL, in input items and function_call_output arrays.
function openAiResponsesImages(body: Json): HistoryImage[] {
  const blocks = (replacement: ImageReplacement): unknown[] => [
    ...("thumbnail" in replacement ? [{ type: "input_image", image_url: `data:${replacement.thumbnail.mediaType};base64,${replacement.thumbnail.data}` }] : []),
    { type: "input_text", text: replacement.text },
  ];
  const found: HistoryImage[] = [];
  const visit = (array: unknown[]): void => {
    for (const block of array) {
      const url = isObject(block) && block["type"] === "input_image" ? block["image_url"] : undefined;
      const match = typeof url === "string" ? DATA_URL.exec(url) : null;
      if (match?.[1] && match[2]) found.push({ mediaType: match[1], data: match[2], replace: slotReplace({ array, block }, blocks) });
    }
  };
  for (const item of asArray(body["input"])) {
    if (!isObject(item)) continue;
    visit(asArray(item["content"]));
    visit(asArray(item["output"]));
  }
  return found;
}

// Gemini: inlineData parts of contents.
function geminiImages(body: Json): HistoryImage[] {
  const blocks = (replacement: ImageReplacement): unknown[] => [
    ...("thumbnail" in replacement ? [{ inlineData: { mimeType: replacement.thumbnail.mediaType, data: replacement.thumbnail.data } }] : []),
    { text: replacement.text },
  ];
  const found: HistoryImage[] = [];
  for (const content of asArray(body["contents"])) {
    if (!isObject(content)) continue;
    const array = asArray(content["parts"]);
    for (const block of array) {
      const inline = isObject(block) ? (block["inlineData"] ?? block["inline_data"]) : undefined;
      if (!isObject(inline) || typeof inline["data"] !== "string") continue;
      const mediaType = stringOf(inline["mimeType"] ?? inline["mime_type"]);
      if (mediaType.startsWith("image/")) found.push({ mediaType, data: inline["data"], replace: slotReplace({ array, block }, blocks) });
    }
  }
  return found;
}

const FINDERS: Partial<Record<HistoryFormat, (body: Json) => HistoryImage[]>> = {
  [HistoryFormat.ANTHROPIC]: anthropicImages,
  [HistoryFormat.OPENAI_CHAT]: openAiChatImages,
  [HistoryFormat.OPENAI_RESPONSES]: openAiResponsesImages,
  [HistoryFormat.GEMINI]: geminiImages,
};

/** The inline images of a parsed vendor request body, oldest first (none for an unknown format). */
export function historyImages(format: HistoryFormat, body: Json): HistoryImage[] {
  return FINDERS[format]?.(body) ?? [];
}

/** What identifies a conversation when its caller names none: its system prompt and first message. */
export function conversationOpening(body: Json): string {
  const first = (list: unknown): unknown => asArray(list)[0] ?? null;
  return JSON.stringify([
    body["system"] ?? body["instructions"] ?? body["systemInstruction"] ?? null,
    first(body["messages"] ?? body["input"] ?? body["contents"]),
  ]);
}
