/** The agent runtimes whose hook payloads and answers Loupe's hooks speak. */
export type HookRuntime = "claude-code" | "codex" | "gemini-cli" | "opencode";

export const HOOK_RUNTIMES: readonly HookRuntime[] = ["claude-code", "codex", "gemini-cli", "opencode"];

/**
 * The runtime a payload came from: `--runtime` when given, else by its shape — Gemini CLI names
 * its events BeforeTool/AfterTool, Codex sends a `turn_id` — else Claude Code (whose shape the
 * Agent SDK shares).
 */
export function hookRuntimeOf(payload: Record<string, unknown>, flag: string | undefined): HookRuntime {
  if (flag !== undefined && (HOOK_RUNTIMES as readonly string[]).includes(flag)) return flag as HookRuntime;
  const event = payload["hook_event_name"];
  if (event === "BeforeTool" || event === "AfterTool") return "gemini-cli";
  if (typeof payload["turn_id"] === "string") return "codex";
  return "claude-code";
}

/** Whether a runtime shows a hook's `additionalContext` beside the replaced output, inside the same tool result (Claude Code does). */
export const carriesContext = (runtime: HookRuntime): boolean => runtime === "claude-code";

/**
 * The answer that replaces a tool's output, in the runtime's words; undefined when the runtime
 * cannot replace it. `context` (only where {@link carriesContext}) is shown after the output.
 */
export function replaceOutputAnswer(runtime: HookRuntime, event: string, updated: unknown, viewText: string, isMcp: boolean, context?: string): unknown {
  switch (runtime) {
    case "claude-code": {
      const hookSpecificOutput: Record<string, unknown> = { hookEventName: event, updatedToolOutput: updated };
      if (isMcp) hookSpecificOutput["updatedMCPToolOutput"] = updated;
      if (context !== undefined) hookSpecificOutput["additionalContext"] = context;
      return { hookSpecificOutput };
    }
    // Codex honours no updatedToolOutput; a PostToolUse "block" replaces the output with its reason, word for word.
    case "codex":
      return { decision: "block", reason: viewText };
    // Gemini CLI's AfterTool can only add to a result or turn it into an error.
    case "gemini-cli":
      return undefined;
    case "opencode":
      return { updatedToolOutput: updated };
  }
}

/** The answer that changes a tool's input, in the runtime's words; undefined when the runtime honours none. */
export function replaceInputAnswer(runtime: HookRuntime, event: string, updatedInput: Record<string, unknown>): unknown {
  switch (runtime) {
    case "claude-code":
      return { hookSpecificOutput: { hookEventName: event, updatedInput } };
    case "gemini-cli":
      return { hookSpecificOutput: { hookEventName: event, tool_input: updatedInput } };
    case "codex":
      return undefined;
    case "opencode":
      return { updatedInput };
  }
}

/** Why a runtime's post-tool answer cannot replace output, for the one stderr line. */
export const CANNOT_REPLACE: Partial<Record<HookRuntime, string>> = {
  "gemini-cli": "Gemini CLI's AfterTool can only add to a result or block it; the BeforeTool hook (loupe hook pre-tool-use) captures shell commands instead",
};

/** Why a runtime's pre-tool answer cannot change input, for the one stderr line. */
export const CANNOT_REWRITE: Partial<Record<HookRuntime, string>> = {
  codex: "Codex honours no changed input in its PreToolUse hook; its PostToolUse hook replaces the output instead",
};

/** The tools of Loupe's own MCP server (packages/client/src/mcp). */
export const LOUPE_MCP_TOOLS: readonly string[] = [
  "read_result",
  "search_result",
  "read_history",
  "search_history",
  "put_note",
  "request_handover",
  "get_app_limit",
  "set_app_limit",
];

/**
 * Whether a tool is one of Loupe's own MCP tools, by the names runtimes give them (`read_result`,
 * Claude Code's and Codex's `mcp__loupe__read_result`, Gemini CLI's `mcp_loupe_read_result`,
 * OpenCode's `loupe_read_result`, whatever the server is called). Their answers are already cut
 * to a budget and are the very text a view left out: projecting them again would omit it again.
 */
export function isLoupeMcpTool(toolName: string): boolean {
  return LOUPE_MCP_TOOLS.some((tool) => toolName === tool || toolName.endsWith(`_${tool}`));
}
