import { toJsonString } from "@bufbuild/protobuf";
import { SourceLimitSchema, type SourceLimit } from "@loupe/proto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import type { LoupeMcpApi } from "./loupe-mcp-api.js";
import { optionalCount } from "./schema-fields.js";
import { definedFields, errorResult, runTool, textResult, type McpToolContext } from "./tool-output.js";

const sourceField = z.string().min(1).describe('The app (source) whose rule this is, e.g. "claude-code".');

const setAppLimitInput = {
  source: sourceField,
  keep_limit_chars: optionalCount(
    "History cut: tool results longer than this many characters are cut to their head and tail; 0 turns the cut off. Must exceed keep_head_chars + keep_tail_chars + 200.",
  ),
  keep_head_chars: optionalCount("History cut: characters kept from the start of a cut result."),
  keep_tail_chars: optionalCount("History cut: characters kept from the end of a cut result."),
  keep_tools: z
    .array(z.string().min(1))
    .describe("History cut: the tools whose results may be cut (matched case-insensitively); replaces the stored list.")
    .optional(),
  mode: z.enum(["cut", "project"]).describe("Loupe's mode for this app.").optional(),
  budget_tokens: optionalCount("Token budget of a first view when a Project call gives none (0 = the model's default)."),
  image_keep_last: optionalCount(
    "History cut: keep the last this many images whole; older ones become a thumbnail and the id of the saved original (0 = off).",
  ),
  image_dedupe: z.boolean().describe("History cut: replace an image identical to a later one by a one-line reference to it.").optional(),
  vendor_cache_ttl_seconds: optionalCount("The vendor's prompt-cache lifetime: earlier images change only after a pause this long (default 300).", 1),
};

/** The refusal a caller without the admin permission gets from set_app_limit. */
export const ADMIN_REQUIRED_MESSAGE =
  "permission_denied: set_app_limit needs the admin permission, which this connection does not have; an operator grants it where the MCP server is started, a model cannot";

function limitText(source: string, limit: SourceLimit | undefined): string {
  const json = limit === undefined ? "{}" : toJsonString(SourceLimitSchema, limit, { useProtoFieldName: true });
  return `app ${JSON.stringify(source)} rule: ${json}`;
}

/**
 * Registers get_app_limit and set_app_limit (RulesService). set_app_limit is refused unless
 * `admin`: a model, prompt-injected or not, must not change its own app's rules.
 */
export function registerLimitTools(server: McpServer, api: LoupeMcpApi, admin: boolean, context: McpToolContext): void {
  const { onError } = context;
  server.registerTool(
    "get_app_limit",
    {
      title: "Show an app's Loupe rule",
      description: "Shows the rule Loupe applies to an app's tool results (fields left out have their default).",
      inputSchema: { source: sourceField },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool("get_app_limit", onError, async () => {
        const response = await api.getSourceLimit({ source: args.source }, { signal: extra.signal });
        return textResult(limitText(args.source, response.limit));
      }),
  );

  server.registerTool(
    "set_app_limit",
    {
      title: "Change an app's Loupe rule (admin only)",
      description:
        "Changes the rule Loupe applies to an app's tool results; fields left out keep their value. " +
        "Needs the admin permission, which an operator grants when starting this server; without it the call is refused.",
      inputSchema: setAppLimitInput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool("set_app_limit", onError, async () => {
        if (!admin) return errorResult(ADMIN_REQUIRED_MESSAGE);
        const limit = definedFields({
          keepLimitChars: args.keep_limit_chars,
          keepHeadChars: args.keep_head_chars,
          keepTailChars: args.keep_tail_chars,
          keepTools: args.keep_tools === undefined ? undefined : { values: args.keep_tools },
          mode: args.mode,
          budgetTokens: args.budget_tokens,
          imageKeepLast: args.image_keep_last,
          imageDedupe: args.image_dedupe,
          vendorCacheTtlSeconds: args.vendor_cache_ttl_seconds,
        });
        const response = await api.setSourceLimit({ source: args.source, limit }, { signal: extra.signal });
        return textResult(limitText(args.source, response.limit));
      }),
  );
}
