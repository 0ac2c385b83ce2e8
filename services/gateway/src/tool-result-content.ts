import { canonicalBytes, revisionOf, type CanonicalPart } from "@loupe/archive-store";
import type { Part, ToolResult } from "@loupe/proto";

/** A result's canonical content: what is archived, hashed and projected. */
export interface ResultContent {
  bytes: Uint8Array;
  text: string;
  revision: string;
  /** Media parts in their original order (they pass through untouched). */
  media: Part[];
}

function canonicalPart(part: Part): CanonicalPart | undefined {
  switch (part.content.case) {
    case "text":
      return { text: part.content.value };
    case "json":
      return { json: part.content.value };
    case "media":
      return { media: part.content.value };
    default:
      return undefined;
  }
}

/** Canonical bytes (text and json parts joined with "\n"), their text, revision and the media parts. */
export function resultContent(result: ToolResult): ResultContent {
  const parts = result.parts.map(canonicalPart).filter((part): part is CanonicalPart => part !== undefined);
  const bytes = canonicalBytes(parts);
  return {
    bytes,
    text: new TextDecoder().decode(bytes),
    revision: revisionOf(bytes),
    media: result.parts.filter((part) => part.content.case === "media"),
  };
}
