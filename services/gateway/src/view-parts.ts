import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Part, PartSchema } from "@loupe/proto";

type PartInit = MessageInitShape<typeof PartSchema>;

/**
 * A result's parts with the result id each saved medium was saved under (`mediaIds`, by the
 * medium's index among the media parts); the media's bytes and order unchanged.
 */
export function withMediaIds(parts: readonly Part[], mediaIds: ReadonlyMap<number, string>): PartInit[] {
  let index = 0;
  return parts.map((part): PartInit => {
    if (part.content.case !== "media") return part;
    const resultId = mediaIds.get(index++);
    return resultId === undefined ? part : { content: { case: "media", value: { ...part.content.value, resultId } } };
  });
}

/**
 * The parts of a first view: the projected text, then the result's media in
 * their original order, untouched (each with the result id it was saved under,
 * when it was). A medium with neither inline data nor a location cannot be
 * attached: it is named in a notice instead.
 */
export function viewParts(text: string, media: readonly Part[], mediaIds: ReadonlyMap<number, string> = new Map()): PartInit[] {
  const parts: PartInit[] = [{ content: { case: "text", value: text } }];
  for (const part of withMediaIds(media, mediaIds)) {
    if (part.content?.case !== "media") continue;
    const medium = part.content.value;
    if ((medium.data?.byteLength ?? 0) > 0 || (medium.uri ?? "") !== "") {
      parts.push(part);
      continue;
    }
    const name = (medium.name ?? "") === "" ? "unnamed" : medium.name;
    parts.push({
      content: { case: "text", value: `[loupe] ${medium.mimeType || "medium"} "${name ?? ""}" could not be attached: it has no data and no location` },
    });
  }
  return parts;
}
