import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { LedgerEntryKind, type LedgerEntry } from "@loupe/proto";
import * as z from "zod";
import type { LoupeMcpApi } from "./loupe-mcp-api.js";
import { runTool, textResult, toolReference, type McpToolContext } from "./tool-output.js";

const KINDS = ["projection", "cut", "recovery", "compaction", "deletion"] as const;
const KIND_OF: Record<(typeof KINDS)[number], LedgerEntryKind> = {
  projection: LedgerEntryKind.PROJECTION,
  cut: LedgerEntryKind.CUT,
  recovery: LedgerEntryKind.RECOVERY,
  compaction: LedgerEntryKind.COMPACTION,
  deletion: LedgerEntryKind.DELETION,
};

const ledgerInput = {
  session_id: z
    .string()
    .min(1)
    .describe("The conversation whose entries to list (leave it out for the session this server was started for, or for the whole team without one).")
    .optional(),
  kinds: z.array(z.enum(KINDS)).describe("Only these kinds of entries (default all).").optional(),
  limit: z.number().int().min(1).max(100).describe("Entries per page, newest first (default 20).").optional(),
  cursor: z.string().describe("next_cursor from a previous answer, for older entries.").optional(),
};

const kindName = (kind: LedgerEntryKind): string => KINDS.find((name) => KIND_OF[name] === kind) ?? "unknown";

/** One entry as a line the model can act on: when, what, tokens before → after, and the call that restores it. */
function entryLine(entry: LedgerEntry, context: McpToolContext): string {
  const when = entry.time === undefined ? "" : timestampDate(entry.time).toISOString();
  const tokens = entry.tokensBefore > 0 || entry.tokensAfter > 0 ? `, ${String(entry.tokensBefore)} → ${String(entry.tokensAfter)} tokens` : "";
  const restore =
    entry.handleJson === ""
      ? ""
      : kindName(entry.kind) === "compaction"
        ? `; restore with ${toolReference(context, "read_history")} ${entry.handleJson}`
        : `; restore with ${toolReference(context, "read_result")} ${entry.handleJson}`;
  return `- ${when} ${kindName(entry.kind)}${entry.sessionId === "" ? "" : ` [session ${entry.sessionId}]`}: ${entry.detail}${tokens}${restore}`;
}

/** Registers `ledger`: what Loupe cut, projected, compacted or deleted from this context, with the handle that restores each. */
export function registerLedgerTool(server: McpServer, api: LoupeMcpApi, context: McpToolContext): void {
  const list = api.listLedgerEntries;
  if (list === undefined) return;
  server.registerTool(
    "ledger",
    {
      title: "What Loupe did to this context",
      description:
        "Lists, newest first, what Loupe did to your context: tool results it projected to a first view, history cuts, recoveries, compactions and deletions — " +
        "each with tokens before → after and the exact call that restores what it took out (read_result for a saved output, read_history for compacted turns).",
      inputSchema: ledgerInput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool("ledger", context.onError, async () => {
        const sessionId = args.session_id ?? context.sessionId ?? "";
        const page = await list(
          { sessionId, kinds: (args.kinds ?? []).map((kind) => KIND_OF[kind]), limit: args.limit ?? 20, cursor: args.cursor ?? "" },
          { signal: extra.signal },
        );
        const scope = sessionId === "" ? "this team" : `session ${sessionId}`;
        const lines = page.entries.map((entry) => entryLine(entry, context));
        const more = page.nextCursor === "" ? "" : `[older entries: call ledger with {"cursor":${JSON.stringify(page.nextCursor)}}]`;
        return textResult(
          [`[ledger of ${scope}: ${String(page.entries.length)} entr${page.entries.length === 1 ? "y" : "ies"}, newest first]`, ...lines].join("\n"),
          more,
        );
      }),
  );
}
