import { readSmallFile } from "./whole-read.js";

// OpenCode's read answer (1.18): `<path>P</path>\n<type>file</type>\n<content>\n`, the lines as `N: text`
// (a line over 2,000 characters cut, with a marker), then a footer line, then `</content>`.
const HEAD = /^<path>([^\n]*)<\/path>\n<type>file<\/type>\n<content>\n/;
const CAPPED = /^\(Output capped at [^)]*\. Showing lines (\d+)-(\d+)\. Use offset=\d+ to continue\.\)$/;
const MORE = /^\(Showing lines (\d+)-(\d+) of (\d+)\. Use offset=\d+ to continue\.\)$/;
const MAX_LINE_CHARS = 2000;
const LINE_CUT = `... (line truncated to ${String(MAX_LINE_CHARS)} chars)`;

const shownLine = (line: string): string => (line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) + LINE_CUT : line);

/**
 * OpenCode's read answer for the lines the call asked for, from the file itself, when OpenCode cut them
 * short: at its 50 KB cap, or at its 2,000 lines when the call gave no `limit` — in OpenCode's own form
 * (`N: text` lines, its footer, what followed `</content>` kept), so the view is of what the agent asked
 * to read and ends where the file (or the call's limit) does. Undefined (project what OpenCode gave)
 * when the answer is not such a cut read, the file is larger than `maxBytes` or unreadable, or its lines
 * are no longer those OpenCode showed.
 */
export async function openCodeWholeRead(args: Record<string, unknown>, output: string, maxBytes: number): Promise<string | undefined> {
  const head = HEAD.exec(output);
  const end = output.lastIndexOf("\n</content>");
  if (head === null || end < 0) return undefined;
  const body = output.slice(head[0].length, end).split("\n");
  const footer = body.pop() ?? "";
  const capped = CAPPED.exec(footer);
  const more = MORE.exec(footer);
  const limit = typeof args["limit"] === "number" && Number.isSafeInteger(args["limit"]) && args["limit"] > 0 ? args["limit"] : undefined;
  // Cut by OpenCode: its byte cap always; its line count only when the call named none.
  if (capped === null && (more === null || limit !== undefined)) return undefined;
  const first = Number((capped ?? more)?.[1]);
  const last = Number((capped ?? more)?.[2]);
  while (body.at(-1) === "") body.pop();
  if (body.length !== last - first + 1) return undefined;
  const text = await readSmallFile(head[1] ?? "", maxBytes);
  if (text === undefined) return undefined;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  // The lines shown must still be the file's: else it changed since, and its lines are not added to them.
  for (let index = 0; index < body.length; index++)
    if (body[index] !== `${String(first + index)}: ${shownLine(lines[first - 1 + index] ?? "")}`) return undefined;
  const stop = Math.min(lines.length, limit === undefined ? lines.length : first - 1 + limit);
  const numbered = lines.slice(first - 1, stop).map((line, index) => `${String(first + index)}: ${shownLine(line)}`);
  const closing =
    stop >= lines.length
      ? `(End of file - total ${String(lines.length)} lines)`
      : `(Showing lines ${String(first)}-${String(stop)} of ${String(lines.length)}. Use offset=${String(stop + 1)} to continue.)`;
  return `${head[0]}${numbered.join("\n")}\n\n${closing}${output.slice(end)}`;
}
