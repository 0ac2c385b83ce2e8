import { fromJson, type JsonValue, type MessageInitShape } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import { RecoverRequestSchema, type Part, type RecoverResponse } from "@loupe/proto";

/** A Recover request as a continuation_json string or as a message init. */
export type RecoverInput = string | MessageInitShape<typeof RecoverRequestSchema>;

/** The most pages {@link recoverAll} follows before it gives up (a guard against a server that never ends). */
export const MAX_RECOVER_PAGES = 100_000;

/**
 * Turns a continuation_json (sent as it is: proto JSON with the snake_case
 * field names of RecoverRequest) or an init into a request init.
 *
 * @throws AppError `invalid_argument` when the JSON is not a RecoverRequest
 */
export function recoverRequestFrom(input: RecoverInput): MessageInitShape<typeof RecoverRequestSchema> {
  if (typeof input !== "string") return input;
  try {
    return fromJson(RecoverRequestSchema, JSON.parse(input) as JsonValue);
  } catch (error) {
    throw new AppError("invalid_argument", `continuation_json is not a recover request [reason=${error instanceof Error ? error.message : String(error)}]`, {
      cause: error,
    });
  }
}

/** The text of the text and json parts of `parts`, joined with nothing between (pages are exact bytes). */
export function textOfParts(parts: readonly Part[]): string {
  let text = "";
  for (const part of parts) {
    if (part.content.case === "text" || part.content.case === "json") text += part.content.value;
  }
  return text;
}

/**
 * Sends `input` to `recover`, then follows `next_cursor` until the answer is
 * complete, and returns the pages' text joined in order (for a line or byte
 * range: the original's exact bytes). Each page is its own call.
 *
 * @throws AppError `internal` when a cursor repeats (the server did not advance);
 *   any error of `recover` as it is
 */
export async function recoverAll(
  recover: (request: MessageInitShape<typeof RecoverRequestSchema>) => Promise<RecoverResponse>,
  input: RecoverInput,
): Promise<string> {
  const first = recoverRequestFrom(input);
  let response = await recover(first);
  let text = textOfParts(response.parts);
  const seen = new Set<string>();
  while (response.nextCursor !== "") {
    if (seen.has(response.nextCursor) || seen.size >= MAX_RECOVER_PAGES)
      throw new AppError("internal", `recover cursor did not advance [result_id=${response.resultId}]`);
    seen.add(response.nextCursor);
    const next: MessageInitShape<typeof RecoverRequestSchema> = { resultId: response.resultId || (first.resultId ?? ""), cursor: response.nextCursor };
    if (first.budgetTokens !== undefined) next.budgetTokens = first.budgetTokens;
    response = await recover(next);
    text += textOfParts(response.parts);
  }
  return text;
}
