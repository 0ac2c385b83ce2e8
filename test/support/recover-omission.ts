import { fromJson } from "@bufbuild/protobuf";
import type { GrpcClient } from "@loupe/grpc";
import { RecoverRequestSchema, type Omission, type ProjectionService, type RecoverResponse } from "@loupe/proto";

/** Every answer Recover gave while following one continuation to its end. */
export interface Recovery {
  text: string;
  pages: RecoverResponse[];
}

/**
 * Sends an omission's continuation_json to Recover exactly as it is, then
 * follows next_cursor until the range is complete; checks every cursor advances.
 */
export async function recoverOmission(client: GrpcClient<typeof ProjectionService>, omission: Omission, budgetTokens?: number): Promise<Recovery> {
  const first = fromJson(RecoverRequestSchema, JSON.parse(omission.continuationJson) as never);
  if (budgetTokens !== undefined) first.budgetTokens = budgetTokens;
  const pages: RecoverResponse[] = [];
  let response = await client.recover(first);
  pages.push(response);
  let previousEnd = response.endByte ?? 0;
  const cursors = new Set<string>();
  while (response.nextCursor !== "") {
    if (cursors.has(response.nextCursor)) throw new Error("a cursor came back twice");
    cursors.add(response.nextCursor);
    response = await client.recover({ resultId: first.resultId, cursor: response.nextCursor, ...(budgetTokens === undefined ? {} : { budgetTokens }) });
    const text = response.parts.map((part) => (part.content.case === "text" ? part.content.value : "")).join("");
    if (text === "") throw new Error("a page served nothing");
    // Byte ranges (line and byte recoveries) must continue exactly where the last page ended.
    if (response.startByte !== undefined && (response.startByte !== previousEnd || (response.endByte ?? 0) <= previousEnd))
      throw new Error(`cursor did not advance [from=${String(previousEnd)}]`);
    previousEnd = response.endByte ?? 0;
    pages.push(response);
    if (pages.length > 10_000) throw new Error("too many pages");
  }
  const text = pages.map((page) => page.parts.map((part) => (part.content.case === "text" ? part.content.value : "")).join("")).join("");
  return { text, pages };
}

/** The text of lines start..end (1-based, inclusive, terminators kept) of `text`. */
export function linesOf(text: string, start: number, end: number): string {
  const lines = text.split(/(?<=\n)/);
  return lines.slice(start - 1, end).join("");
}

/** The first text part of a response's parts. */
export function textOf(parts: ReadonlyArray<{ content: { case: string | undefined; value?: unknown } }>): string {
  return parts.map((part) => (part.content.case === "text" ? String(part.content.value) : "")).join("");
}
