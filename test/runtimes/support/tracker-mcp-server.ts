/**
 * A stdio MCP server `tracker` for the runtime suite, run as `node --import tsx tracker-mcp-server.ts`:
 * one tool, `search` (`{ query: string }`), answering one text block holding the JSON of
 * `trackerAnswer(query)` — a large structured answer, as an issue tracker's would be.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { trackerAnswer } from "./tracker-data.js";

const server = new Server({ name: "tracker", version: "0.0.1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    {
      name: "search",
      description: "Searches the issue tracker; answers JSON with the matching issues in `items`.",
      inputSchema: { type: "object", properties: { query: { type: "string", description: "What to look for." } }, required: ["query"] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const query = typeof request.params.arguments?.["query"] === "string" ? request.params.arguments["query"] : "";
  return { content: [{ type: "text", text: JSON.stringify(trackerAnswer(query)) }] };
});
await server.connect(new StdioServerTransport());
