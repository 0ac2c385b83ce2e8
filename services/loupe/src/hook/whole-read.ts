import { open } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";

/** A numbered read as the runtime reports it (Claude Code's Read `file`) and the call that asked for it. */
export interface ReadReport {
  /** The `file` object of the tool's response: `filePath`, `content`, `numLines`, `startLine`, `totalLines`. */
  file: Record<string, unknown>;
  /** The call's arguments (`file_path`, `offset`, `limit`). */
  args: Record<string, unknown>;
  /** The session's working folder, for a relative path. */
  cwd: string;
  /** The largest file read back, in bytes. */
  maxBytes: number;
}

const count = (value: unknown): number | undefined => (typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined);

/**
 * The lines a read asked for, from the file itself, when the runtime handed back fewer (Claude Code
 * pages a read over 25,000 tokens, and stops at 2,000 lines when no `limit` was given): from the
 * read's `startLine` to its `limit`, else to the end of the file — so the view is of what the agent
 * asked to read, its end the file's true end. Undefined (project what the runtime gave) when nothing
 * was cut, the file is larger than `maxBytes` or cannot be read, or its lines are no longer those the
 * runtime read (the file changed, or the runtime altered lines: its total or the lines it gave differ).
 */
export async function wholeRead(report: ReadReport): Promise<string | undefined> {
  const { file, args } = report;
  const content = file["content"];
  const startLine = count(file["startLine"]);
  const numLines = count(file["numLines"]);
  const totalLines = count(file["totalLines"]);
  const limit = count(args["limit"]);
  const path = typeof file["filePath"] === "string" ? file["filePath"] : args["file_path"];
  if (typeof content !== "string" || typeof path !== "string" || path === "") return undefined;
  if (startLine === undefined || startLine < 1 || numLines === undefined || totalLines === undefined) return undefined;
  const wanted = Math.min(totalLines - startLine + 1, limit ?? Number.POSITIVE_INFINITY);
  if (numLines >= wanted) return undefined;
  const text = await readSmallFile(isAbsolute(path) ? path : resolve(report.cwd, path), report.maxBytes);
  if (text === undefined) return undefined;
  // Lines as the runtime counts them: a final newline ends the last line and starts an empty one.
  const lines = text.split("\n");
  if (lines.length !== totalLines) return undefined;
  const given = lines.slice(startLine - 1, startLine - 1 + numLines).join("\n");
  if (given.replace(/\n$/, "") !== content.replace(/\n$/, "")) return undefined;
  return lines.slice(startLine - 1, startLine - 1 + wanted).join("\n");
}

/** A regular file's text when it is at most `maxBytes`; undefined when larger, not a file, or unreadable. */
export async function readSmallFile(path: string, maxBytes: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, "r");
    const { size, isFile } = await handle.stat().then((stat) => ({ size: stat.size, isFile: stat.isFile() }));
    if (!isFile || size > maxBytes) return undefined;
    return await handle.readFile({ encoding: "utf8" });
  } catch {
    // Gone, unreadable or not a file: the runtime's own lines are projected instead.
    return undefined;
  } finally {
    await handle?.close();
  }
}
