import type { RecoverResponse } from "@loupe/proto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import type { LoupeMcpApi } from "./loupe-mcp-api.js";
import { budgetTokensField, optionalCount } from "./schema-fields.js";
import { viewsParagraph } from "./view-lines.js";
import { definedFields, mediaContent, nextCall, runTool, textOfPartsWithMedia, textResult, toolReference, type McpToolContext } from "./tool-output.js";

const resultIdField = z.string().min(1).describe("The result_id from a view's omission note (r_…).");

const readResultInput = {
  result_id: resultIdField,
  start_line: optionalCount("First line to read, 1-based.", 1),
  end_line: optionalCount("Last line to read, inclusive; leave out to read to the end.", 1),
  start_byte: optionalCount("First byte to read, 0-based (instead of lines)."),
  end_byte: optionalCount("Byte to stop before (exclusive)."),
  json_pointer: z.string().describe('A JSON pointer into a structured result, e.g. "/items" ("" is the whole value).').optional(),
  item_start: optionalCount("With json_pointer to an array: first item, 0-based."),
  item_end: optionalCount("With json_pointer to an array: item to stop before."),
  cursor: z.string().min(1).describe("The cursor of an earlier answer's next: line; continues exactly where it stopped.").optional(),
  view: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .describe(
      "A field view of a structured result (e.g. \"detailed\"), named in the view's note or this tool's description; json_pointer then addresses the shaped value.",
    )
    .optional(),
  budget_tokens: budgetTokensField,
};

const searchResultInput = {
  result_id: resultIdField,
  pattern: z
    .string()
    .min(1)
    .describe("A JavaScript regular expression, case-sensitive; start it with (?i) to ignore case. With a cursor, the cursor's pattern is used."),
  context_lines: optionalCount("Lines to show before and after each match (default 0)."),
  cursor: z.string().min(1).describe("The cursor of an earlier answer's next: line, for more matches.").optional(),
  budget_tokens: budgetTokensField,
};

function rangeHeader(response: RecoverResponse): string {
  const pieces = [`result ${response.resultId}`];
  if (response.startLine !== undefined && response.endLine !== undefined)
    pieces.push(`lines ${String(response.startLine)}–${String(response.endLine)} of ${String(response.totalLines)}`);
  if (response.startByte !== undefined && response.endByte !== undefined)
    pieces.push(`bytes ${String(response.startByte)}–${String(response.endByte)} of ${String(response.totalBytes)}`);
  return `[${pieces.join(", ")}]`;
}

function staleNote(response: RecoverResponse, context: McpToolContext): string {
  if (!response.stale) return "";
  return response.newerResultId === ""
    ? "note: this path was read again since, with other content"
    : `note: this path was read again since, with other content; newer result: call ${toolReference(context, "read_result")} with ${JSON.stringify({ result_id: response.newerResultId })}`;
}

/** Registers read_result and search_result (ProjectionService.Recover). */
export function registerResultTools(server: McpServer, api: LoupeMcpApi, context: McpToolContext): void {
  const { onError } = context;
  server.registerTool(
    "read_result",
    {
      title: "Read a saved tool result",
      description:
        "Reads part of a complete tool result that Loupe saved when it shortened the result's view. " +
        "An omission note in the view gives the exact arguments (its JSON uses these argument names): pass them as they are. " +
        "Give one of: a line range, a byte range, a json_pointer (with or without a view), or a cursor. " +
        "Answers a header line, then the original's exact text; when the range did not fit the budget, a last line 'next: call read_result with {…}' gives the exact call for the rest." +
        viewsParagraph(context.views ?? []),
      inputSchema: readResultInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool("read_result", onError, async () => {
        const request = definedFields({
          resultId: args.result_id,
          startLine: args.start_line,
          endLine: args.end_line,
          startByte: args.start_byte,
          endByte: args.end_byte,
          jsonPointer: args.json_pointer,
          itemStart: args.item_start,
          itemEnd: args.item_end,
          cursor: args.cursor,
          view: args.view,
          budgetTokens: args.budget_tokens,
        });
        const response = await api.recover(request, { signal: extra.signal });
        const next =
          response.nextCursor === ""
            ? ""
            : nextCall(context, "read_result", {
                result_id: response.resultId || args.result_id,
                cursor: response.nextCursor,
                budget_tokens: args.budget_tokens,
              });
        // A saved medium (image, audio, file) is answered whole, as the content block MCP has for it.
        const [first] = response.parts;
        const medium = response.parts.length === 1 && first?.content.case === "media" ? mediaContent(first.content.value) : undefined;
        if (medium !== undefined) {
          const media = first?.content.case === "media" ? first.content.value : undefined;
          return { content: [{ type: "text", text: `[result ${response.resultId}, ${media?.mimeType ?? ""}, ${String(response.totalBytes)} bytes]` }, medium] };
        }
        return textResult(rangeHeader(response), textOfPartsWithMedia(response.parts), staleNote(response, context), next);
      }),
  );

  server.registerTool(
    "search_result",
    {
      title: "Search a saved tool result",
      description:
        "Finds the lines of a saved tool result that match a regular expression, grep style: 'N:line' for a match, 'N-line' for context, '--' between groups. " +
        "Use it to find what a shortened view left out, then read_result a line range around a match. " +
        "A last line 'next: call search_result with {…}' gives the exact call for more matches.",
      inputSchema: searchResultInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool("search_result", onError, async () => {
        const request = definedFields({
          resultId: args.result_id,
          // A cursor carries its pattern and context; Loupe refuses both at once.
          pattern: args.cursor === undefined ? args.pattern : undefined,
          contextLines: args.cursor === undefined ? args.context_lines : undefined,
          cursor: args.cursor,
          budgetTokens: args.budget_tokens,
        });
        const response = await api.searchResult(request, { signal: extra.signal });
        const served = response.matches.length;
        const first = response.matchCount - served + 1;
        const what = served === 0 ? "no matches on this page" : `matches ${String(first)}–${String(response.matchCount)}`;
        const header = `[result ${response.resultId} (${String(response.totalLines)} lines), pattern ${JSON.stringify(args.pattern)}: ${what}]`;
        const next =
          response.nextCursor === ""
            ? ""
            : nextCall(context, "search_result", {
                result_id: response.resultId || args.result_id,
                pattern: args.pattern,
                cursor: response.nextCursor,
                budget_tokens: args.budget_tokens,
              });
        return textResult(header, textOfPartsWithMedia(response.parts), next);
      }),
  );
}
