import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import type { LoupeMcpApi } from "./loupe-mcp-api.js";
import { budgetTokensField, optionalCount } from "./schema-fields.js";
import { AppError } from "@loupe/errors";
import { definedFields, nextCall, runTool, textResult, toolReference, type McpToolContext } from "./tool-output.js";

const sessionIdField = z
  .string()
  .min(1)
  .describe("The conversation's session id, as Loupe's handover note names it (leave it out for the session this server was started for).")
  .optional();

/** The session a call reads: its own, else the server's. */
function sessionOf(given: string | undefined, context: McpToolContext): string {
  const session = given ?? context.sessionId;
  if (session === undefined)
    throw new AppError("invalid_argument", "session_id is required: this server was started for no session (loupe mcp --session, or LOUPE_SESSION_ID)");
  return session;
}

const readHistoryInput = {
  session_id: sessionIdField,
  address: z.string().min(1).describe('One turn\'s address, e.g. "turn:12" (as notes and search_history cite them).').optional(),
  start_seq: optionalCount("First turn to read (1-based seq), instead of an address.", 1),
  end_seq: optionalCount("Last turn to read, inclusive; leave out to read to the latest turn.", 1),
  cursor: z.string().min(1).describe("The cursor of an earlier answer's next: line; continues exactly where it stopped.").optional(),
  budget_tokens: budgetTokensField,
};

const searchHistoryInput = {
  session_id: sessionIdField,
  query: z.string().min(1).describe("Words or a phrase to find in the conversation's turns (a phrase first, else every word)."),
  limit: optionalCount("Most turns to list (default 20, at most 200).", 1),
};

/** Registers read_history and search_history (ConversationService). */
export function registerHistoryTools(server: McpServer, api: LoupeMcpApi, context: McpToolContext): void {
  const { onError } = context;
  server.registerTool(
    "read_history",
    {
      title: "Read earlier turns of the conversation",
      description:
        "Reads earlier turns of this conversation from Loupe's turn log, also turns compaction removed from your context: one turn by address (turn:12), a seq range, or a cursor. " +
        "Answers a header line, then the turns as text; a last line 'next: call read_history with {…}' gives the exact call for the rest.",
      inputSchema: readHistoryInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool("read_history", onError, async () => {
        const sessionId = sessionOf(args.session_id, context);
        const request = definedFields({
          sessionId,
          address: args.address,
          startSeq: args.start_seq,
          endSeq: args.end_seq,
          cursor: args.cursor,
          budgetTokens: args.budget_tokens,
        });
        const response = await api.readHistory(request, { signal: extra.signal });
        const served =
          response.startSeq === 0
            ? "no turns"
            : response.startSeq === response.endSeq
              ? `turn:${String(response.startSeq)}`
              : `turns ${String(response.startSeq)}–${String(response.endSeq)}`;
        const next =
          response.nextCursor === ""
            ? ""
            : nextCall(context, "read_history", { session_id: sessionId, cursor: response.nextCursor, budget_tokens: args.budget_tokens });
        return textResult(`[session ${sessionId}: ${served}]`, response.text, next);
      }),
  );

  server.registerTool(
    "search_history",
    {
      title: "Search the conversation's turns",
      description:
        "Finds earlier turns of this conversation whose text holds the query; lists each turn's address and its matching line. " +
        "Read a whole turn with read_history and its address.",
      inputSchema: searchHistoryInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool("search_history", onError, async () => {
        const sessionId = sessionOf(args.session_id, context);
        const response = await api.searchHistory(definedFields({ sessionId, query: args.query, limit: args.limit }), { signal: extra.signal });
        const query = JSON.stringify(args.query);
        if (response.hits.length === 0) return textResult(`[session ${sessionId}: no turn matches ${query}]`);
        const shown = response.hits.length < response.matchCount ? `; showing ${String(response.hits.length)}` : "";
        const lines = response.hits.map((hit) => `${hit.address}: ${hit.snippet}`).join("\n");
        const first = response.hits[0]?.address ?? "";
        return textResult(
          `[session ${sessionId}: ${String(response.matchCount)} turn(s) match ${query}${shown}]`,
          lines,
          `read a turn: call ${toolReference(context, "read_history")} with ${JSON.stringify({ session_id: sessionId, address: first })}`,
        );
      }),
  );
}
