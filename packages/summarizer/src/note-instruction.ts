import type { NoteUpdateInput, Turn } from "@loupe/conversation";
import { renderTurnText, turnAddress } from "@loupe/conversation";

/** Characters of a turn shown in the instruction's list of new turns. */
const TURN_LINE_CHARS = 120;

/** One line naming a new turn, so the model can cite its address: `turn:12 user: fix the tests`. */
function turnLine(turn: Turn): string {
  const [head = "", ...body] = renderTurnText(turn).split("\n");
  const gist = body.join(" / ").replace(/\s+/g, " ").trim();
  const cut = gist.length > TURN_LINE_CHARS ? `${gist.slice(0, TURN_LINE_CHARS)}…` : gist;
  return cut === "" ? head : `${head}: ${cut}`;
}

/** The saved originals of the new turns' tool results, for the note to cite (none: no lines). */
function savedResultLines(input: NoteUpdateInput): string[] {
  const saved = input.savedResults ?? [];
  if (saved.length === 0) return [];
  return [
    "These tool outputs are saved whole; cite each one you draw on by its result id in the files section (read_result recovers it):",
    ...saved.map(
      (result) =>
        `- ${result.resultId}: ${result.toolName}${result.path === "" ? "" : ` ${result.path}`} (${result.kind}, ${String(result.originalTokens)} tokens)`,
    ),
    "",
  ];
}

/**
 * The instruction that ends a note request: update the previous note (quoted in full, or "none yet")
 * with only the new turns, keep objective, decisions, files, errors with their `turn:<seq>` addresses,
 * state and next steps, answer with the note only, under `maxNoteTokens` tokens. It lists the new
 * turns' addresses in order, since the rendered conversation itself carries none.
 */
export function noteInstruction(input: NoteUpdateInput): string {
  const first = input.newTurns[0]?.seq ?? 1;
  const last = input.newTurns.at(-1)?.seq ?? first;
  const after = input.previous?.coveredThroughSeq ?? first - 1;
  const range = `${turnAddress(first)} to ${turnAddress(last)}`;
  const scope =
    after > 0
      ? `ONLY the turns after ${turnAddress(after)} (${range}); the turns up to ${turnAddress(after)} are already in it`
      : `the turns so far (${range})`;
  const previous = input.previous === undefined ? "none yet" : `\n<previous_note>\n${input.previous.text}\n</previous_note>`;
  return [
    "Pause the task: write the handover note of this session for whoever continues it.",
    `Update the previous note with ${scope}.`,
    "Keep the objective, key decisions, files changed, errors met (each with its turn:<seq> address), the current state and the next steps.",
    `Answer with the note only, in under ${String(input.maxNoteTokens)} tokens, and call no tools.`,
    "",
    "The new turns, in order (cite these addresses):",
    ...input.newTurns.map(turnLine),
    "",
    ...savedResultLines(input),
    `Previous note: ${previous}`,
  ].join("\n");
}
