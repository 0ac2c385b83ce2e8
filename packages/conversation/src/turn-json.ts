import { AppError } from "@loupe/errors";
import type { Turn } from "./turn.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A turn's bytes in the log: JSON with a fixed field order, so a retried turn has the same bytes. */
export function encodeTurnJson(turn: Turn): Uint8Array {
  return encoder.encode(
    JSON.stringify({
      seq: turn.seq,
      role: turn.role,
      parts: turn.parts,
      toolCalls: turn.toolCalls,
      toolResults: turn.toolResults,
      tokenCount: turn.tokenCount,
    }),
  );
}

/**
 * Reads a turn from the log.
 * @throws AppError `internal` for bytes that are not a logged turn
 */
export function decodeTurnJson(bytes: Uint8Array): Turn {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch (error) {
    throw new AppError("internal", "unreadable turn in the log", { cause: error });
  }
  const turn = value as Partial<Turn> | null;
  if (turn === null || typeof turn.seq !== "number" || (turn.role !== "user" && turn.role !== "assistant") || !Array.isArray(turn.parts)) {
    throw new AppError("internal", "malformed turn in the log");
  }
  return {
    seq: turn.seq,
    role: turn.role,
    parts: turn.parts,
    toolCalls: turn.toolCalls ?? [],
    toolResults: turn.toolResults ?? [],
    tokenCount: turn.tokenCount ?? 0,
  };
}
