import { appendFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/**
 * The probe MCP server `loupe`: one tool, `read_result` (`{ result_id: string, lines?: number }`),
 * that answers `lines` (default 3) numbered lines naming the result. Each call is appended to
 * `log` (when given) as a JSON line.
 */
export function createProbeMcpServer(log?: string): Server {
  const server = new Server({ name: "loupe", version: "0.0.1" }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: "read_result",
        description: "Reads lines of a saved tool result.",
        inputSchema: {
          type: "object",
          properties: {
            result_id: { type: "string", description: "The saved result's id." },
            lines: { type: "integer", description: "How many lines to answer (default 3)." },
          },
          required: ["result_id"],
        },
      },
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    if (log !== undefined) appendFileSync(log, `${JSON.stringify({ tool: request.params.name, args })}\n`);
    const id = typeof args["result_id"] === "string" ? args["result_id"] : "?";
    const count = typeof args["lines"] === "number" ? args["lines"] : 3;
    const lines = Array.from({ length: count }, (_, index) => `mcp line ${String(index + 1).padStart(5, "0")} of result ${id}: ${"data ".repeat(12)}`);
    return { content: [{ type: "text", text: lines.join("\n") }] };
  });
  return server;
}
