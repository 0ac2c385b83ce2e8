import { isClaudeTranscriptLine, rowsOfClaudeCodeTranscript } from "./claude-code-transcript.js";
import { isCodexRolloutLine, rowsOfCodexRollout } from "./codex-rollout.js";
import { isGeminiChatLine, rowsOfGeminiChat } from "./gemini-chat.js";
import type { CorpusRow } from "./corpus-row.js";

/** A runtime's saved session, known by its first line, read whole as corpus rows. */
export interface SessionFormat {
  /** The runtime, which names the trajectory (`<runtime>:<file name>`). */
  readonly runtime: string;
  /** The rows of the session's lines; undefined when they hold none of its messages. */
  readonly rowsOf: (lines: readonly string[], trajectoryId: string) => CorpusRow[] | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const parsed = (lines: readonly string[]): Record<string, unknown>[] =>
  lines.flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return isObject(value) ? [value] : [];
    } catch {
      // A line cut short (a session still being written): skipped.
      return [];
    }
  });

const FORMATS: ReadonlyArray<SessionFormat & { readonly isLine: (value: unknown) => boolean }> = [
  { runtime: "claude-code", isLine: isClaudeTranscriptLine, rowsOf: (lines, id) => rowsOfClaudeCodeTranscript(lines.join("\n"), id) },
  { runtime: "codex", isLine: isCodexRolloutLine, rowsOf: (lines, id) => rowsOfCodexRollout(parsed(lines), id) },
  { runtime: "gemini-cli", isLine: isGeminiChatLine, rowsOf: (lines, id) => rowsOfGeminiChat(parsed(lines), id) },
];

/** The session format a JSONL file's first line (parsed) opens, if any: Claude Code's transcript, Codex's rollout, Gemini CLI's chat. */
export function sessionFormatOf(firstLine: unknown): SessionFormat | undefined {
  return FORMATS.find((format) => format.isLine(firstLine));
}
