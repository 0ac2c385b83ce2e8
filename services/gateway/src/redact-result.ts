import { redactSecrets, type CompiledRule } from "@loupe/projection";
import type { Part, ToolResult } from "@loupe/proto";

/**
 * The result with secrets masked in its text and JSON parts (before it is
 * hashed, saved or shown), and how many were masked. Media pass untouched.
 * With no rules (redaction off) the result comes back as it was.
 */
export function redactResult(result: ToolResult, rules: readonly CompiledRule[] | undefined): { result: ToolResult; count: number } {
  if (rules === undefined) return { result, count: 0 };
  let count = 0;
  const parts = result.parts.map((part): Part => {
    const content = part.content;
    if (content.case !== "text" && content.case !== "json") return part;
    const redacted = redactSecrets(content.value, rules);
    if (redacted.count === 0) return part;
    count += redacted.count;
    return { ...part, content: { case: content.case, value: redacted.text } };
  });
  return { result: count === 0 ? result : { ...result, parts }, count };
}
