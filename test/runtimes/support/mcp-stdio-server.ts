/**
 * A tiny stdio MCP server for the runtime probes, run as
 * `node --import tsx mcp-stdio-server.ts [log file]`: the probe server of `probe-mcp-server.ts`
 * (one tool, `read_result`) on stdin/stdout, so a probe sees the exact tool name a runtime gives
 * the model and how the runtime renders (and truncates) an MCP tool's output.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createProbeMcpServer } from "./probe-mcp-server.js";

await createProbeMcpServer(process.argv[2]).connect(new StdioServerTransport());
