import type { Turn, TurnToolResult } from "../turn.js";
import { turnAddress } from "../turn.js";
import { partText } from "./part-text.js";

/**
 * Renders one turn as plain text for reading and searching history. The first line is
 * `turn:<seq> <role>`; then each part (text as is, JSON as its text, media as
 * `[media <mimeType> <uri or name>]`), each tool call as `→ <name> <argsJson>`, and each tool result as
 * `← <toolName>` with ` [error]` and ` [exit N]` when they apply, followed by the result's text.
 * Deterministic: the same turn gives the same text.
 */
export function renderTurnText(turn: Turn): string {
  const lines = [`${turnAddress(turn.seq)} ${turn.role}`];
  for (const part of turn.parts) lines.push(partText(part));
  for (const call of turn.toolCalls) lines.push(call.argsJson === "" ? `→ ${call.name}` : `→ ${call.name} ${call.argsJson}`);
  for (const result of turn.toolResults) lines.push(resultHeader(result), ...result.parts.map(partText));
  return lines.join("\n");
}

function resultHeader(result: TurnToolResult): string {
  const error = result.isError ? " [error]" : "";
  const exit = result.exitCode === undefined ? "" : ` [exit ${String(result.exitCode)}]`;
  return `← ${result.toolName}${error}${exit}`;
}
