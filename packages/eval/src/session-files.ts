import { isClaudeTranscriptLine, rowsOfClaudeCodeTranscript } from "./claude-code-transcript.js";
import { isCodexRolloutLine, rowsOfCodexRollout } from "./codex-rollout.js";
import { isGeminiChatLine, rowsOfGeminiChat } from "./gemini-chat.js";
import type { CorpusRow } from "./corpus-row.js";

/** A runtime's saved session, known by its first line, read whole as corpus rows. */
export interface SessionFormat {
  /** The runtime, which names the trajectory (`<runtime>:<file name>`). */
  readonly runtime: string;
  /** The rows of the session's text; undefined when it holds none of its messages. */
  readonly rowsOf: (text: string, trajectoryId: string) => CorpusRow[] | undefined;
}

const FORMATS: ReadonlyArray<SessionFormat & { readonly isLine: (value: unknown) => boolean }> = [
  { runtime: "claude-code", isLine: isClaudeTranscriptLine, rowsOf: rowsOfClaudeCodeTranscript },
  { runtime: "codex", isLine: isCodexRolloutLine, rowsOf: rowsOfCodexRollout },
  { runtime: "gemini-cli", isLine: isGeminiChatLine, rowsOf: rowsOfGeminiChat },
];

/** The session format a JSONL file's first line (parsed) opens, if any: Claude Code's transcript, Codex's rollout, Gemini CLI's chat. */
export function sessionFormatOf(firstLine: unknown): SessionFormat | undefined {
  return FORMATS.find((format) => format.isLine(firstLine));
}
