/**
 * The conversation model Loupe keeps per session: turns in seq order, each a
 * role with ordered parts, the tool calls an assistant made and the tool
 * results a user turn carries back. Plain data (JSON-serialisable), independent
 * of the wire format, so the gateway, the archive and the note-worker share it.
 */

/** Who spoke. Tool results travel in `user` turns (Anthropic's convention); renderers map them per format. */
export type TurnRole = "user" | "assistant";

/** One part of a turn or tool result, in order. */
export type TurnPart =
  { type: "text"; text: string } | { type: "json"; json: string } | { type: "media"; mimeType: string; data?: string; uri?: string; name?: string };

/** A tool call an assistant turn made. */
export interface TurnToolCall {
  toolUseId: string;
  name: string;
  /** The call's arguments as JSON text ("" = none). */
  argsJson: string;
}

/** A tool result a user turn carries back, answering the call with the same `toolUseId`. */
export interface TurnToolResult {
  toolUseId: string;
  toolName: string;
  parts: TurnPart[];
  isError: boolean;
  exitCode?: number;
}

/** One turn of a session. `seq` starts at 1 and has no gaps once the log is complete. */
export interface Turn {
  seq: number;
  role: TurnRole;
  parts: TurnPart[];
  toolCalls: TurnToolCall[];
  toolResults: TurnToolResult[];
  /** Tokens of the turn as the runtime counted them, or as Loupe counted them when the runtime sent none. */
  tokenCount: number;
}

/** The address of a turn in history: `turn:<seq>`. */
export function turnAddress(seq: number): string {
  return `turn:${String(seq)}`;
}

/** The seq an address names, or undefined when `address` is not `turn:<positive integer>`. */
export function parseTurnAddress(address: string): number | undefined {
  const match = /^turn:([1-9][0-9]{0,9})$/.exec(address.trim());
  if (match === null) return undefined;
  const seq = Number(match[1]);
  return seq <= 0xffffffff ? seq : undefined;
}

/** The turns right after seq `afterSeq` with no gap, in seq order (stops at the first missing seq). */
export function contiguousAfter(turns: readonly Turn[], afterSeq: number): Turn[] {
  const run: Turn[] = [];
  for (const turn of turns) {
    if (turn.seq <= afterSeq) continue;
    if (turn.seq !== afterSeq + run.length + 1) break;
    run.push(turn);
  }
  return run;
}
