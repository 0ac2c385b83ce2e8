import { open } from "node:fs/promises";
import {
  composeIntent,
  intentFromClaudeTranscript,
  intentFromCodexRollout,
  intentFromGeminiChat,
  modelFromClaudeTranscript,
  modelFromGeminiChat,
} from "@loupe/client/intent";
import type { HookRuntime } from "./hook-runtime.js";

/** How much of a transcript's start (the task) and end (the message that asked for the call) is read. */
const HEAD_BYTES = 256 * 1024;
const TAIL_BYTES = 512 * 1024;

/** What a transcript tells about a tool call: its intent, and the model the view is for. */
export interface TranscriptContext {
  intent: string;
  model: string;
}

const NOTHING: TranscriptContext = { intent: "", model: "" };

/**
 * The intent of a tool call from the runtime's transcript (`transcript_path`: Claude Code's transcript,
 * Codex's rollout, Gemini CLI's chat file): the task, the assistant's earlier messages with their calls,
 * and the assistant text that asked for the call, read from the transcript's start and end only; and,
 * from Claude Code's and Gemini CLI's, the model of the last reply (Codex names it in the payload). ""
 * for either when the runtime keeps another format, the file cannot be read, or nothing is found: a
 * view without an intent is the view Loupe always gave.
 */
export async function contextFromTranscript(runtime: HookRuntime, path: string, toolUseId: string): Promise<TranscriptContext> {
  if (runtime === "opencode" || path === "") return NOTHING;
  try {
    const file = await open(path, "r");
    try {
      const { size } = await file.stat();
      const read = async (position: number, length: number): Promise<string> => {
        const buffer = Buffer.alloc(Math.max(0, length));
        const { bytesRead } = await file.read(buffer, 0, buffer.byteLength, position);
        return buffer.subarray(0, bytesRead).toString("utf8");
      };
      const head = await read(0, Math.min(size, HEAD_BYTES));
      const tail = size <= HEAD_BYTES ? head : await read(Math.max(0, size - TAIL_BYTES), Math.min(size, TAIL_BYTES));
      if (runtime === "codex") return { intent: intentFromCodexRollout(head, tail, toolUseId), model: "" };
      if (runtime === "gemini-cli") return { intent: intentFromGeminiChat(head, tail), model: modelFromGeminiChat(tail) };
      return { intent: intentFromClaudeTranscript(head, tail, toolUseId), model: modelFromClaudeTranscript(tail) };
    } finally {
      await file.close();
    }
  } catch {
    // No transcript to read (moved, not yet written, another format): no intent.
    return NOTHING;
  }
}

// Earlier messages a plugin's context is read for (composeIntent keeps their last 4 KiB).
const MAX_EARLIER = 64;

/** The strings of a plugin's `earlier` (its earlier messages, oldest first), its last 64; [] when it is not an array. */
function earlierOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string").slice(-MAX_EARLIER) : [];
}

/**
 * What a plugin passes itself of the call (OpenCode's: `loupe_context: { task, earlier, asking, model }`,
 * read from the session's messages; `earlier` the model's earlier messages with their calls, oldest
 * first), as an intent and a model; undefined when the payload carries none.
 */
export function contextFromPayload(payload: Record<string, unknown>): TranscriptContext | undefined {
  const context = payload["loupe_context"];
  if (typeof context !== "object" || context === null) return undefined;
  const { task, earlier, asking, model } = context as { task?: unknown; earlier?: unknown; asking?: unknown; model?: unknown };
  const text = (value: unknown): string => (typeof value === "string" ? value : "");
  return { intent: composeIntent(text(task), text(asking), earlierOf(earlier)), model: text(model).slice(0, 200) };
}
