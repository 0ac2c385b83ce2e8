import { canonicalContent, revisionOf, type CanonicalPart } from "@loupe/archive-store/content";
import type { Part, ToolResult } from "@loupe/proto";

/** A result's canonical content: what is archived, hashed and projected. */
export interface ResultContent {
  bytes: Uint8Array;
  text: string;
  revision: string;
  /** Media parts in their original order (they pass through untouched). */
  media: Part[];
  /** For text followed by one JSON part: where that part starts, in characters and in bytes. */
  structuredTail?: { startChar: number; startByte: number };
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
  const { bytes, text } = canonicalContent(parts);
  const content: ResultContent = { bytes, text, revision: revisionOf(bytes), media: result.parts.filter((part) => part.content.case === "media") };
  const tail = structuredTailOf(result.parts);
  if (tail !== undefined) content.structuredTail = { startChar: text.length - tail.length, startByte: bytes.byteLength - Buffer.byteLength(tail) };
  return content;
}

// Text parts followed by exactly one JSON part, the last of them: the JSON is that result's structured content.
function structuredTailOf(parts: readonly Part[]): string | undefined {
  const textual = parts.filter((part) => part.content.case === "text" || part.content.case === "json");
  const last = textual[textual.length - 1];
  const jsonParts = textual.filter((part) => part.content.case === "json");
  if (textual.length < 2 || jsonParts.length !== 1 || last?.content.case !== "json") return undefined;
  return last.content.value;
}
