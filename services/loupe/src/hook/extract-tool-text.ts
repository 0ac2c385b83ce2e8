/**
 * The text of a PostToolUse `tool_response` and a way to put a view of that
 * text back into the same shape, so the agent receives output it can parse.
 */
export interface ToolText {
  /** The text Loupe projects (one entry; kept as a list for future multi-part shapes). */
  readonly parts: readonly string[];
  /** Name of the shape recognised (for warnings and tests), e.g. "bash", "read", "mcp-content". */
  readonly shape: string;
  /** Returns a copy of the original response with `viewText` in place of the text. */
  rebuild(viewText: string): unknown;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A content block array (MCP CallToolResult.content): text blocks projected, other blocks kept after the view. */
function fromContentBlocks(blocks: readonly unknown[], wrap: (content: unknown[]) => unknown, shape: string): ToolText | undefined {
  if (blocks.length === 0) return undefined;
  const texts: string[] = [];
  const others: unknown[] = [];
  for (const block of blocks) {
    if (isObject(block) && block["type"] === "text" && typeof block["text"] === "string") texts.push(block["text"]);
    else if (isObject(block) && typeof block["type"] === "string") others.push(block);
    else return undefined;
  }
  if (texts.length === 0) return undefined;
  return { parts: [texts.join("\n")], shape, rebuild: (view) => wrap([{ type: "text", text: view }, ...others]) };
}

/** Keys holding the whole output of a tool in the common object shapes (Grep `content`, Codex/others `output`). */
const SINGLE_TEXT_KEYS = ["output", "content", "result", "text"] as const;

/**
 * Recognises the documented PostToolUse `tool_response` shapes and returns
 * their text with a rebuild function; `undefined` when the shape is unknown
 * (the caller passes the original through).
 *
 * - string (Codex, many tools): the view replaces the string.
 * - Bash `{ stdout, stderr, interrupted, isImage }`: stdout and stderr are
 *   projected together (stderr after a `[stderr]` line, as the model would read
 *   them); the view goes in `stdout`, `stderr` becomes "" when it was folded in;
 *   every other field is kept. `isImage: true` is not text: unknown.
 * - Read `{ type?: "text", file: { filePath, content, … } }`: `file.content` is
 *   replaced; filePath, numLines, startLine, totalLines are kept as they were.
 * - MCP: an array of content blocks, or `{ content: [blocks], … }`: the text
 *   blocks are joined and replaced by one text block holding the view; other
 *   blocks (images, resources) and other fields are kept.
 * - An object whose only string field among output/content/result/text holds
 *   the text (e.g. Grep in content mode): that field is replaced.
 *
 * `toolName` is informational (shapes are recognised structurally).
 */
export function extractToolText(toolName: string, toolResponse: unknown): ToolText | undefined {
  void toolName;
  if (typeof toolResponse === "string") return { parts: [toolResponse], shape: "string", rebuild: (view) => view };
  if (Array.isArray(toolResponse)) return fromContentBlocks(toolResponse, (content) => content, "mcp-content");
  if (!isObject(toolResponse)) return undefined;
  const response = toolResponse;

  if (typeof response["stdout"] === "string" && response["isImage"] !== true) {
    const stdout = response["stdout"];
    const stderr = typeof response["stderr"] === "string" ? response["stderr"] : "";
    const text = stderr === "" ? stdout : `${stdout}${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}[stderr]\n${stderr}`;
    return { parts: [text], shape: "bash", rebuild: (view) => ({ ...response, stdout: view, ...(typeof response["stderr"] === "string" ? { stderr: "" } : {}) }) };
  }

  const file = response["file"];
  if (isObject(file) && typeof file["content"] === "string" && (response["type"] === undefined || response["type"] === "text")) {
    const content = file["content"];
    return { parts: [content], shape: "read", rebuild: (view) => ({ ...response, file: { ...file, content: view } }) };
  }

  const content = response["content"];
  if (Array.isArray(content)) return fromContentBlocks(content, (blocks) => ({ ...response, content: blocks }), "mcp-result");

  const textKeys = SINGLE_TEXT_KEYS.filter((key) => typeof response[key] === "string");
  const [key] = textKeys;
  if (textKeys.length === 1 && key !== undefined) {
    const text = response[key] as string;
    return { parts: [text], shape: `field:${key}`, rebuild: (view) => ({ ...response, [key]: view }) };
  }
  return undefined;
}

/** True when the response says the tool failed (`is_error: true`, `isError: true` or `success: false`); false otherwise. */
export function responseIsError(toolResponse: unknown): boolean {
  if (!isObject(toolResponse)) return false;
  return toolResponse["is_error"] === true || toolResponse["isError"] === true || toolResponse["success"] === false;
}
