import { AppError } from "@loupe/errors";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import type { LoupeMcpApi } from "./loupe-mcp-api.js";
import { runTool, textResult, type McpToolContext } from "./tool-output.js";

const sessionIdField = z.string().min(1).describe("The conversation's session id (leave it out for the session this server was started for).").optional();

const putNoteInput = {
  session_id: sessionIdField,
  text: z
    .string()
    .min(1)
    .describe(
      "The handover note: the objective, decisions taken, files touched, errors met (resolved or not), the current state and the next steps, citing turns by address (turn:12).",
    ),
  covered_through_seq: z.number().int().min(1).describe("The last turn (seq) the note stands for; the turns after it stay in the context."),
};

const requestHandoverInput = {
  session_id: sessionIdField,
  reason: z.string().max(500).describe('Why now, in a few words: "finished the investigation of the parser bug", "verified the migration".').optional(),
};

function sessionOf(given: string | undefined, context: McpToolContext): string {
  const session = given ?? context.sessionId;
  if (session === undefined)
    throw new AppError("invalid_argument", "session_id is required: this server was started for no session (loupe mcp --session, or LOUPE_SESSION_ID)");
  return session;
}

/** Registers put_note and request_handover: a model writes its own handover note and asks for a fresh window at a natural point. */
export function registerHandoverTools(server: McpServer, api: LoupeMcpApi, context: McpToolContext): void {
  const { onError } = context;
  server.registerTool(
    "put_note",
    {
      title: "Write your own handover note",
      description:
        "Hands Loupe a handover note you wrote yourself, standing for the conversation through turn covered_through_seq. " +
        "When the context is compacted, the note replaces those turns (they stay readable with read_history). " +
        "Write it at a natural point — an investigation finished, a set of changes verified — then call request_handover.",
      inputSchema: putNoteInput,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args, extra) =>
      runTool("put_note", onError, async () => {
        const sessionId = sessionOf(args.session_id, context);
        const response = await api.putNote({ sessionId, text: args.text, coveredThroughSeq: args.covered_through_seq }, { signal: extra.signal });
        return textResult(
          `[session ${sessionId}: note version ${String(response.note?.version ?? 0)} stands for turns 1–${String(response.note?.coveredThroughSeq ?? 0)}]`,
        );
      }),
  );

  server.registerTool(
    "request_handover",
    {
      title: "Ask for a handover to a fresh window",
      description:
        "Asks the agent runtime to compact now, at a natural point, instead of when the window is full: " +
        "the next turn the runtime sends reports compaction_due ('requested: <reason>'), and the runtime swaps in the handover note and the turns after it. " +
        "Use it after finishing an investigation or verifying a set of changes; write the note first with put_note if you want your own.",
      inputSchema: requestHandoverInput,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool("request_handover", onError, async () => {
        const sessionId = sessionOf(args.session_id, context);
        const response = await api.requestHandover({ sessionId, reason: args.reason ?? "" }, { signal: extra.signal });
        return textResult(`[session ${sessionId}: handover requested; the runtime sees compaction_due, ${JSON.stringify(response.compactionReason)}]`);
      }),
  );
}
