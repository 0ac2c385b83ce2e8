/** One turn of a conversation transcript: lines [start, end), 0-based. */
export interface TurnSpan {
  /** 1-based turn number, in order. */
  number: number;
  role: string;
  start: number;
  end: number;
}

const ROLES = "user|assistant|system|tool|human|ai|model|developer";
// "user:", "## User", "[assistant]", "<user>", "turn 3 (user)": the ways transcripts mark who speaks.
const TURN_MARKERS = [
  new RegExp(`^(${ROLES})\\s*:`, "i"),
  new RegExp(`^#{1,4}\\s*(${ROLES})\\b`, "i"),
  new RegExp(`^\\[(${ROLES})\\]`, "i"),
  new RegExp(`^<(${ROLES})>`, "i"),
  new RegExp(`^turn[:\\s]*\\d+\\s*\\((${ROLES})\\)`, "i"),
];
const ROLE_ALIASES: Record<string, string> = { human: "user", ai: "assistant", model: "assistant" };

function roleOf(line: string): string | undefined {
  for (const marker of TURN_MARKERS) {
    const role = marker.exec(line)?.[1]?.toLowerCase();
    if (role !== undefined) return ROLE_ALIASES[role] ?? role;
  }
  return undefined;
}

/** Finds the turns of a transcript by their role markers; fewer than two means it is not one. */
export function findTurns(lines: readonly string[]): TurnSpan[] {
  const starts: Array<{ index: number; role: string }> = [];
  for (const [index, line] of lines.entries()) {
    const role = roleOf(line);
    if (role !== undefined) starts.push({ index, role });
  }
  return starts.map((start, order) => ({ number: order + 1, role: start.role, start: start.index, end: starts[order + 1]?.index ?? lines.length }));
}
