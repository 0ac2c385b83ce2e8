/** One part of a tool's output as Loupe receives it: text, or JSON text (a tool's structured answer). */
export interface ToolPart {
  kind: "text" | "json";
  value: string;
}

/**
 * The output of a post-tool hook's `tool_response` and a way to put a view of
 * it back into the same shape, so the agent receives output it can parse.
 */
export interface ToolText {
  /** What Loupe projects, in order. */
  readonly parts: readonly ToolPart[];
  /** Name of the shape recognised (for warnings and tests), e.g. "bash", "read", "mcp-content". */
  readonly shape: string;
  /** Where the runtime saved the whole output when it cut it before the hook (Claude Code's persistedOutputPath). */
  readonly persistedPath?: string;
  /** Set for file reads the runtime numbers itself from `startLine` (Claude Code's Read). */
  readonly numbered?: { startLine: number };
  /** Returns a copy of the original response with `viewText` in place of the output (a numbered read: `numLines` lines from file line `startLine`). */
  rebuild(viewText: string, numLines?: number, startLine?: number): unknown;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A text that is a JSON object or array is a tool's structured answer: Loupe gives it a valid-JSON view. */
function partOf(text: string): ToolPart {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      JSON.parse(text);
      return { kind: "json", value: text };
    } catch {
      // Not JSON after all: plain text.
    }
  }
  return { kind: "text", value: text };
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
  return { parts: blockParts(texts), shape, rebuild: (view) => wrap([{ type: "text", text: view }, ...others]) };
}

/**
 * The parts of an MCP answer's text blocks: one block as text or JSON; several whose last is one
 * JSON object or array (a summary, then the structured answer) as their text and that JSON, so
 * Loupe projects the text and shapes the JSON; else their text joined.
 */
function blockParts(texts: readonly string[]): ToolPart[] {
  if (texts.length === 1) return [partOf(texts[0] ?? "")];
  const last = partOf(texts.at(-1) ?? "");
  const text = { kind: "text" as const, value: texts.join("\n") };
  if (last.kind !== "json") return [text];
  return [{ kind: "text", value: texts.slice(0, -1).join("\n") }, last];
}

/** Keys holding the whole output of a tool in the common object shapes (Grep `content`, Codex/others `output`). */
const SINGLE_TEXT_KEYS = ["output", "content", "result", "text"] as const;
/** Claude Code's fields for an output it saved to a file; a replacement never carries them (it would get the 2 KB preview). */
const PERSISTED_KEYS = new Set(["persistedOutputPath", "persistedOutputSize"]);

function withoutPersisted(response: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(response).filter(([key]) => !PERSISTED_KEYS.has(key)));
}

function fromBash(response: JsonObject): ToolText {
  const stdout = response["stdout"] as string;
  const stderr = typeof response["stderr"] === "string" ? response["stderr"] : "";
  const text = stderr === "" ? stdout : `${stdout}${stdout.endsWith("\n") || stdout === "" ? "" : "\n"}[stderr]\n${stderr}`;
  const persisted = response["persistedOutputPath"];
  return {
    parts: [{ kind: "text", value: text }],
    shape: "bash",
    ...(typeof persisted === "string" && persisted !== "" ? { persistedPath: persisted } : {}),
    rebuild: (view) => ({ ...withoutPersisted(response), stdout: view, ...(typeof response["stderr"] === "string" ? { stderr: "" } : {}) }),
  };
}

function fromRead(response: JsonObject, file: JsonObject): ToolText {
  const startLine = typeof file["startLine"] === "number" && file["startLine"] >= 1 ? file["startLine"] : 1;
  return {
    parts: [{ kind: "text", value: file["content"] as string }],
    shape: "read",
    numbered: { startLine },
    rebuild: (view, numLines, firstLine) => ({
      ...response,
      file: { ...file, content: view, ...(numLines === undefined ? {} : { numLines }), ...(firstLine === undefined ? {} : { startLine: firstLine }) },
    }),
  };
}

/**
 * Recognises the documented post-tool `tool_response` shapes and returns
 * their output with a rebuild function; `undefined` when the shape is unknown
 * (the caller passes the original through).
 *
 * - string (Codex, many tools): the view replaces the string.
 * - Bash `{ stdout, stderr, interrupted, isImage }`: stdout and stderr are
 *   projected together (stderr after a `[stderr]` line, as the model would read
 *   them); the view goes in `stdout`, `stderr` becomes "" when it was folded in;
 *   `persistedOutputPath` (the whole output, when Claude Code cut `stdout`) is
 *   reported and never copied into the replacement. `isImage: true` is not text.
 * - Read `{ type?: "text", file: { filePath, content, startLine, … } }`:
 *   `file.content` is replaced; the runtime numbers its lines from `startLine`.
 * - MCP: an array of content blocks, or `{ content: [blocks], … }`: the text
 *   blocks (one JSON text becomes a JSON part) are replaced by one text block
 *   holding the view; other blocks (images, resources) and fields are kept.
 * - An object whose only string field among output/content/result/text holds
 *   the text (e.g. Grep in content and count modes): that field is replaced.
 * - A list of paths `{ filenames: [...], … }` with no such field (Grep's
 *   files_with_matches mode, Glob): the paths one a line; the view's lines
 *   replace `filenames`, the other fields (the runtime's count) are kept.
 */
export function extractToolText(toolResponse: unknown): ToolText | undefined {
  if (typeof toolResponse === "string") return { parts: [partOf(toolResponse)], shape: "string", rebuild: (view) => view };
  if (Array.isArray(toolResponse)) return fromContentBlocks(toolResponse, (content) => content, "mcp-content");
  if (!isObject(toolResponse)) return undefined;
  const response = toolResponse;
  if (typeof response["stdout"] === "string" && response["isImage"] !== true) return fromBash(response);
  const file = response["file"];
  if (isObject(file) && typeof file["content"] === "string" && (response["type"] === undefined || response["type"] === "text")) return fromRead(response, file);
  const content = response["content"];
  if (Array.isArray(content)) return fromContentBlocks(content, (blocks) => ({ ...response, content: blocks }), "mcp-result");
  const textKeys = SINGLE_TEXT_KEYS.filter((key) => typeof response[key] === "string");
  const [key] = textKeys;
  if (textKeys.length === 1 && key !== undefined) {
    return { parts: [partOf(response[key] as string)], shape: `field:${key}`, rebuild: (view) => ({ ...response, [key]: view }) };
  }
  if (textKeys.length === 0) return fromFileList(response);
  return undefined;
}

/**
 * A list of paths (Claude Code's Grep in its default files_with_matches mode, Glob): one path a line,
 * put back as the list of the view's lines — the runtime shows them one a line under its own count of
 * the files (`Found 1,300 files`), notices among them.
 */
function fromFileList(response: JsonObject): ToolText | undefined {
  const filenames = response["filenames"];
  if (response["mode"] !== undefined && response["mode"] !== "files_with_matches") return undefined;
  if (!Array.isArray(filenames) || filenames.length === 0 || !filenames.every((name) => typeof name === "string" && !name.includes("\n"))) return undefined;
  return { parts: [{ kind: "text", value: filenames.join("\n") }], shape: "filenames", rebuild: (view) => ({ ...response, filenames: view.split("\n") }) };
}

/** True when the response says the tool failed (`is_error: true`, `isError: true` or `success: false`); false otherwise. */
export function responseIsError(toolResponse: unknown): boolean {
  if (!isObject(toolResponse)) return false;
  return toolResponse["is_error"] === true || toolResponse["isError"] === true || toolResponse["success"] === false;
}
