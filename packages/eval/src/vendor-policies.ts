import { Buffer } from "node:buffer";
import { isShellCall, type CorpusRow } from "./corpus-row.js";
import type { Policy, PolicyView } from "./policy.js";
import { searchSavedOutput } from "./saved-file-recovery.js";

/** Codex: 10,000 tokens, estimated as Codex does at 4 characters a token. */
export const CODEX_LIMIT_CHARS = 40_000;
/** Claude Code: shell results over this many characters are saved and previewed. */
export const CLAUDE_CODE_SHELL_LIMIT_CHARS = 30_000;
/** Claude Code: other tools' results over this many characters are saved and previewed. */
export const CLAUDE_CODE_OTHER_LIMIT_CHARS = 50_000;
/** Claude Code: the preview is the first 2 KB. */
export const CLAUDE_CODE_PREVIEW_CHARS = 2_000;
/** Gemini CLI: outputs over this many characters are saved; the view keeps this many (20% head, 80% tail). */
export const GEMINI_LIMIT_CHARS = 40_000;
/** OpenCode: at most this many lines … */
export const OPENCODE_MAX_LINES = 2_000;
/** … and this many UTF-8 bytes are kept from the head. */
export const OPENCODE_MAX_BYTES = 50 * 1024;

const savedPath = (session: string, row: CorpusRow): string => `/tmp/tool-output/${session.replace(/[^\w.-]+/g, "_")}-${String(row.step)}.txt`;

function saved(row: CorpusRow, firstView: string): PolicyView {
  return { firstView, saved: true, recover: async (evidence) => searchSavedOutput(row.output, evidence) };
}

/** `none`: the output as it is. */
export const nonePolicy: Policy = { name: "none", view: async (row) => ({ firstView: row.output, saved: false }) };

/** `codex`: over 10,000 tokens (40,000 characters), keeps half the budget from each end with a marker; saves nothing. */
export const codexPolicy: Policy = {
  name: "codex",
  view: async ({ output }) => {
    if (output.length <= CODEX_LIMIT_CHARS) return { firstView: output, saved: false };
    const half = CODEX_LIMIT_CHARS / 2;
    const removed = output.length - CODEX_LIMIT_CHARS;
    const lines = output.split("\n").length;
    const marker = `…${String(Math.ceil(removed / 4))} tokens truncated…`;
    return { firstView: `Total output lines: ${String(lines)}\n\n${output.slice(0, half)}${marker}${output.slice(output.length - half)}`, saved: false };
  },
};

/** `claude-code`: over 30,000 characters (shell) or 50,000 (other tools), a 2 KB head preview and the saved file's path. */
export const claudeCodePolicy: Policy = {
  name: "claude-code",
  view: async (row, session) => {
    const limit = isShellCall(row) ? CLAUDE_CODE_SHELL_LIMIT_CHARS : CLAUDE_CODE_OTHER_LIMIT_CHARS;
    if (row.output.length <= limit) return { firstView: row.output, saved: false };
    const size = `${(Buffer.byteLength(row.output) / 1024).toFixed(1)}KB`;
    const preview = row.output.slice(0, CLAUDE_CODE_PREVIEW_CHARS);
    return saved(row, `Output too large (${size}). Full output saved to: ${savedPath(session, row)}\n\nPreview (first 2KB):\n${preview}\n...\n`);
  },
};

/** `gemini-cli`: over 40,000 characters, keeps 20% of that from the head and 80% from the tail, and saves the output. */
export const geminiCliPolicy: Policy = {
  name: "gemini-cli",
  view: async (row, session) => {
    const { output } = row;
    if (output.length <= GEMINI_LIMIT_CHARS) return { firstView: output, saved: false };
    const head = Math.floor(GEMINI_LIMIT_CHARS * 0.2);
    const tail = GEMINI_LIMIT_CHARS - head;
    const note = `Tool output was too large and has been truncated.\nThe full output has been saved to: ${savedPath(session, row)}\nTo read the complete output, use the read_file tool with the absolute file path above.\n\nTruncated part of the output:\n`;
    return saved(row, `${note}${output.slice(0, head)}\n... [CONTENT TRUNCATED] ...\n${output.slice(output.length - tail)}`);
  },
};

/** `opencode`: more than 2,000 lines or 50 KB keeps the head within both, and saves the output. */
export const opencodePolicy: Policy = {
  name: "opencode",
  view: async (row, session) => {
    const lines = row.output.split("\n");
    if (lines.length <= OPENCODE_MAX_LINES && Buffer.byteLength(row.output) <= OPENCODE_MAX_BYTES) return { firstView: row.output, saved: false };
    const kept: string[] = [];
    let bytes = 0;
    for (const line of lines) {
      const size = Buffer.byteLength(line) + (kept.length > 0 ? 1 : 0);
      if (kept.length >= OPENCODE_MAX_LINES || bytes + size > OPENCODE_MAX_BYTES) break;
      kept.push(line);
      bytes += size;
    }
    const removed = lines.length - kept.length;
    const hint = `The tool call succeeded but the output was truncated. Full output saved to: ${savedPath(session, row)}\nUse Grep to search the full content or Read with offset/limit to view specific sections.`;
    return saved(row, `${kept.join("\n")}\n\n...${String(removed)} lines truncated...\n\n${hint}`);
  },
};
