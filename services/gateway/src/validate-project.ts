import { checkSessionIdLength } from "@loupe/archive-store/content";
import { AppError } from "@loupe/errors";
import type { ProjectRequest, ToolResult } from "@loupe/proto";
import { MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS } from "@loupe/rules";

const MAX_ID_LENGTH = 256;

function checkId(name: string, value: string): void {
  if (value.length > MAX_ID_LENGTH) throw new AppError("invalid_argument", `${name} longer than ${String(MAX_ID_LENGTH)} characters`);
}

/**
 * Checks a Project request before anything is saved; returns its result.
 * @throws AppError `invalid_argument` naming the first bad field
 */
export function validateProjectRequest(request: ProjectRequest): ToolResult {
  const result = request.result;
  if (!result) throw new AppError("invalid_argument", "result is required");
  checkSessionIdLength(request.sessionId);
  checkId("source", request.source);
  checkId("tool_name", result.toolName);
  checkId("tool_use_id", result.toolUseId);
  if (request.budgetTokens !== 0 && request.budgetTokens < MIN_BUDGET_TOKENS) {
    throw new AppError("invalid_argument", `budget_tokens below the minimum [budget_tokens=${String(request.budgetTokens)}, min=${String(MIN_BUDGET_TOKENS)}]`);
  }
  if (request.budgetTokens > MAX_BUDGET_TOKENS) {
    throw new AppError("invalid_argument", `budget_tokens above the maximum [budget_tokens=${String(request.budgetTokens)}, max=${String(MAX_BUDGET_TOKENS)}]`);
  }
  for (const [index, part] of result.parts.entries()) {
    if (part.content.case === undefined) throw new AppError("invalid_argument", `result.parts[${String(index)}] is empty`);
  }
  if (result.argsJson !== "") {
    try {
      JSON.parse(result.argsJson);
    } catch {
      // The parser's message names a position in text the caller already has.
      throw new AppError("invalid_argument", "result.args_json is not valid JSON");
    }
  }
  return result;
}
