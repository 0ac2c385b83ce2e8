import type { CorpusRow } from "./corpus-row.js";
import type { Policy } from "./policy.js";
import { searchSavedOutput } from "./saved-file-recovery.js";

/** Cline: every tool result longer than this many characters keeps this many, half from each end. */
export const CLINE_LIMIT_CHARS = 8000;
/** Deep Agents: a result over this many tokens is saved to a file … */
export const DEEP_AGENTS_LIMIT_TOKENS = 20_000;
/** … estimated at this many characters a token, as Deep Agents does. */
export const DEEP_AGENTS_CHARS_PER_TOKEN = 4;
/** … and replaced by this many lines from each end. */
export const DEEP_AGENTS_PREVIEW_LINES = 5;

/** `cline`: every result over 8,000 characters is cut in the middle to 4,000 + 4,000 characters with a marker; nothing is saved. */
export const clinePolicy: Policy = {
  name: "cline",
  view: async ({ output }) => {
    if (output.length <= CLINE_LIMIT_CHARS) return { firstView: output, saved: false };
    const half = CLINE_LIMIT_CHARS / 2;
    const marker = `\n\n[... ${String(output.length - CLINE_LIMIT_CHARS)} characters omitted ...]\n\n`;
    return { firstView: `${output.slice(0, half)}${marker}${output.slice(output.length - half)}`, saved: false };
  },
};

const savedPath = (session: string, row: CorpusRow): string => `/large_tool_results/${session.replace(/[^\w.-]+/g, "_")}-${String(row.step)}`;

/**
 * `deep-agents`: a result over 20,000 tokens (80,000 characters) is saved to
 * a file and replaced by a notice naming it, with its first and last five
 * lines; the agent reads the rest through its file tools (a recovery is one
 * search of the saved file).
 */
export const deepAgentsPolicy: Policy = {
  name: "deep-agents",
  view: async (row, session) => {
    const { output } = row;
    if (output.length <= DEEP_AGENTS_LIMIT_TOKENS * DEEP_AGENTS_CHARS_PER_TOKEN) return { firstView: output, saved: false };
    const lines = output.split("\n");
    const head = lines.slice(0, DEEP_AGENTS_PREVIEW_LINES).join("\n");
    const tail = lines.slice(-DEEP_AGENTS_PREVIEW_LINES).join("\n");
    const notice = `Tool result too large: it was saved to ${savedPath(session, row)}. Read it in parts with read_file (offset and limit). First and last ${String(DEEP_AGENTS_PREVIEW_LINES)} lines:\n`;
    return { firstView: `${notice}${head}\n...\n${tail}`, saved: true, recover: async (evidence) => searchSavedOutput(output, evidence) };
  },
};
