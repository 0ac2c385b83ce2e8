import type { Media, Part } from "@loupe/proto";

/** A piece of a view as the vendor helpers write it. */
export type ViewPiece =
  | { kind: "text"; text: string }
  | { kind: "image"; mediaType: string; data: string }
  | { kind: "image-url"; url: string }
  | { kind: "pdf"; data: string; title: string }
  | { kind: "plain-document"; text: string; title: string };

/**
 * The pieces of a view's parts, in order: text and json parts as text, image
 * media with data as base64 images, http(s) image uris as url images, PDFs and
 * plain-text files with data as documents, and any other medium (audio, other
 * files) as a `[loupe` notice line naming it and where Loupe saved it.
 */
export function viewPieces(parts: readonly Part[]): ViewPiece[] {
  return parts.map((part): ViewPiece => {
    switch (part.content.case) {
      case "text":
      case "json":
        return { kind: "text", text: part.content.value };
      case "media":
        return mediaPiece(part.content.value);
      case undefined:
        return { kind: "text", text: "" };
    }
  });
}

function mediaPiece(media: Media): ViewPiece {
  const isImage = media.mimeType === "" || media.mimeType.startsWith("image/");
  if (media.data.byteLength > 0 && media.mimeType.startsWith("image/")) {
    return { kind: "image", mediaType: media.mimeType, data: Buffer.from(media.data).toString("base64") };
  }
  if (media.data.byteLength === 0 && isImage && /^https?:\/\//.test(media.uri)) return { kind: "image-url", url: media.uri };
  if (media.data.byteLength > 0 && media.mimeType === "application/pdf")
    return { kind: "pdf", data: Buffer.from(media.data).toString("base64"), title: media.name };
  if (media.data.byteLength > 0 && media.mimeType === "text/plain")
    return { kind: "plain-document", text: new TextDecoder().decode(media.data), title: media.name };
  return { kind: "text", text: mediaNotice(media) };
}

/**
 * The notice line that names a medium the message format cannot carry, and where it can be read:
 * the result Loupe saved it under (Recover or read_result with that result_id answers it whole),
 * else its location.
 */
export function mediaNotice(media: Media): string {
  const fields = [
    media.name && `name=${media.name}`,
    media.mimeType && `mime_type=${media.mimeType}`,
    media.uri && `uri=${media.uri}`,
    media.data.byteLength > 0 && `size_bytes=${String(media.data.byteLength)}`,
  ];
  const where = media.resultId === "" ? "" : `; saved, read it with ${JSON.stringify({ result_id: media.resultId })}`;
  return `[loupe: medium not attached: ${fields.filter(Boolean).join(", ")}${where}]`;
}

/** True when every piece is text (the view can be written as a plain string). */
export function isTextOnly(pieces: readonly ViewPiece[]): pieces is Array<{ kind: "text"; text: string }> {
  return pieces.every((piece) => piece.kind === "text");
}
