import { AppError } from "@loupe/errors";
import type { RecoverRequest } from "@loupe/proto";
import { MAX_BUDGET_TOKENS } from "@loupe/rules";

/** Which way a Recover request names what to serve. */
export type RecoverSelector = "lines" | "bytes" | "json" | "cursor";

const RESULT_ID_PATTERN = /^r_[A-Za-z0-9_-]{16,64}$/;
const VIEW_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Checks a Recover request and says which selector it uses.
 * @throws AppError `invalid_argument` (malformed or conflicting fields), `unimplemented` (json_pointer, pattern)
 */
export function validateRecoverRequest(request: RecoverRequest): RecoverSelector {
  const selectors: RecoverSelector[] = [];
  if (request.startLine !== undefined || request.endLine !== undefined) selectors.push("lines");
  if (request.startByte !== undefined || request.endByte !== undefined) selectors.push("bytes");
  if (request.jsonPointer !== undefined || request.itemStart !== undefined || request.itemEnd !== undefined || request.view !== "") selectors.push("json");
  if (request.cursor !== "") selectors.push("cursor");
  if (request.itemStart !== undefined && request.itemEnd !== undefined && request.itemEnd < request.itemStart) {
    throw new AppError("invalid_argument", `item_end before item_start [item_start=${String(request.itemStart)}, item_end=${String(request.itemEnd)}]`);
  }
  if (request.resultId === "" && request.cursor === "") throw new AppError("invalid_argument", "result_id is required");
  if (request.resultId !== "" && !RESULT_ID_PATTERN.test(request.resultId)) {
    throw new AppError("invalid_argument", `malformed result_id [result_id=${request.resultId.slice(0, 80)}]`);
  }
  if (request.view !== "" && !VIEW_NAME_PATTERN.test(request.view)) {
    throw new AppError("invalid_argument", `malformed view name (1 to 64 letters, digits, "_", "-" or ".") [view=${request.view.slice(0, 80)}]`);
  }
  if (selectors.length > 1 && request.view !== "")
    throw new AppError("invalid_argument", `a view goes with a json_pointer and items only, not a line or byte range or a cursor [got=${selectors.join(",")}]`);
  if (selectors.length > 1)
    throw new AppError("invalid_argument", `give one of a line range, a byte range, a json_pointer or a cursor [got=${selectors.join(",")}]`);
  if (request.budgetTokens > MAX_BUDGET_TOKENS) throw new AppError("invalid_argument", `budget_tokens above the maximum [max=${String(MAX_BUDGET_TOKENS)}]`);
  if (request.startLine !== undefined && request.startLine < 1) throw new AppError("invalid_argument", "start_line must be at least 1");
  if (request.startLine !== undefined && request.endLine !== undefined && request.endLine < request.startLine) {
    throw new AppError("invalid_argument", `end_line before start_line [start_line=${String(request.startLine)}, end_line=${String(request.endLine)}]`);
  }
  if (request.startByte !== undefined && request.endByte !== undefined && request.endByte < request.startByte) {
    throw new AppError("invalid_argument", `end_byte before start_byte [start_byte=${String(request.startByte)}, end_byte=${String(request.endByte)}]`);
  }
  return selectors[0] ?? "lines";
}

/**
 * Checks a Recover request by pattern (or a pattern cursor): no range or pointer beside it.
 * @throws AppError `invalid_argument`
 */
export function validatePatternRequest(request: RecoverRequest): void {
  const ranges = request.startLine !== undefined || request.endLine !== undefined || request.startByte !== undefined || request.endByte !== undefined;
  if (ranges || request.jsonPointer !== undefined || request.itemStart !== undefined || request.itemEnd !== undefined || request.view !== "") {
    throw new AppError("invalid_argument", "give a pattern without a line range, byte range, json_pointer or view");
  }
  if (request.pattern !== "" && request.cursor !== "") throw new AppError("invalid_argument", "give a pattern or a cursor, not both");
  if (request.resultId !== "" && !RESULT_ID_PATTERN.test(request.resultId)) {
    throw new AppError("invalid_argument", `malformed result_id [result_id=${request.resultId.slice(0, 80)}]`);
  }
  if (request.resultId === "" && request.cursor === "") throw new AppError("invalid_argument", "result_id is required");
  if (request.budgetTokens > MAX_BUDGET_TOKENS) throw new AppError("invalid_argument", `budget_tokens above the maximum [max=${String(MAX_BUDGET_TOKENS)}]`);
}
