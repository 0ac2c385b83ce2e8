import type { ProjectCallAnswer } from "../project-call/project-call.js";
import { objectField } from "./hook-io.js";
import { numberedReadView } from "./numbered-read-view.js";
import { windowedReadView } from "./windowed-read-view.js";

/** Claude Code shows a hook's context of up to 10,000 characters beside the output (more goes to a file and a 2 KB preview): kept well under. */
const MAX_CONTEXT_CHARS = 9000;

/**
 * A numbered read's replacement: where the runtime shows context beside the lines (Claude Code), Loupe's
 * whole view with every line under its true number (see windowedReadView); else, or when the view cannot
 * be laid out so, the read's first lines and one notice (see numberedReadView). Undefined when every line fits.
 */
export function readLayout(
  startLine: number,
  original: string,
  view: string,
  response: ProjectCallAnswer,
  withContext: boolean,
  path: { filePath?: string },
): { shown: string; numLines: number; startLine?: number; context?: string } | undefined {
  const windowed = withContext
    ? windowedReadView({
        viewText: view,
        original,
        omissions: response.omissions,
        startLine,
        resultId: response.resultId,
        maxContextChars: MAX_CONTEXT_CHARS,
        ...path,
      })
    : undefined;
  if (windowed !== undefined)
    return {
      shown: windowed.content,
      numLines: windowed.numLines,
      startLine: windowed.startLine,
      ...(windowed.context === "" ? {} : { context: windowed.context }),
    };
  const numbered = numberedReadView({ original, sizeChars: view.length, startLine, resultId: response.resultId, ...path });
  if (numbered === undefined) return undefined;
  // The runtime numbers every content line: the notice goes beside the lines where it can, else after them.
  return withContext
    ? { shown: numbered.content, numLines: numbered.numLines, context: numbered.notice }
    : { shown: `${numbered.content}\n${numbered.notice}`, numLines: numbered.numLines + 1 };
}

/** The read's `file_path` argument, for the runtime's own Read call in notices. */
export function filePathOf(input: Record<string, unknown>): { filePath?: string } {
  const path = objectField(input, "tool_input")["file_path"];
  return typeof path === "string" ? { filePath: path } : {};
}
