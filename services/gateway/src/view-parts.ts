import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Part, PartSchema } from "@loupe/proto";

/**
 * The parts of a first view: the projected text, then the result's media in
 * their original order, untouched. A medium with neither inline data nor a
 * location cannot be attached: it is named in a notice instead.
 */
export function viewParts(text: string, media: readonly Part[]): Array<MessageInitShape<typeof PartSchema>> {
  const parts: Array<MessageInitShape<typeof PartSchema>> = [{ content: { case: "text", value: text } }];
  for (const part of media) {
    if (part.content.case !== "media") continue;
    const medium = part.content.value;
    if (medium.data.byteLength > 0 || medium.uri !== "") {
      parts.push(part);
      continue;
    }
    const name = medium.name === "" ? "unnamed" : medium.name;
    parts.push({ content: { case: "text", value: `[loupe] ${medium.mimeType || "medium"} "${name}" could not be attached: it has no data and no location` } });
  }
  return parts;
}
