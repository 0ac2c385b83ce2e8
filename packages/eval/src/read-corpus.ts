import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { AppError } from "@loupe/errors";
import { corpusRowFrom, type CorpusRow, type Trajectory } from "./corpus-row.js";
import { rowsOfMiniSweAgentTrajectory } from "./mini-swe-agent-trajectory.js";
import { sessionFormatOf, type SessionFormat } from "./session-files.js";

/**
 * A file found under a corpus folder — a mini-SWE-agent trajectory (`*.traj.json`) or a runtime's saved session
 * (`*.jsonl`) — and the name its trajectory goes by (`mini-swe-agent:<name>`, `codex:<name>` …): its path under
 * the folder, so the id — and the split it falls in — does not depend on where that folder is.
 */
export interface TrajectoryFile {
  readonly path: string;
  readonly name: string;
}

/** What {@link readCorpus} found. */
export interface Corpus {
  /** Ordered by agent system, then trajectory id; each trajectory's rows by step. */
  readonly trajectories: readonly Trajectory[];
  /** Valid rows read. */
  readonly rows: number;
  /** Lines skipped: not JSON, or missing a required field. */
  readonly skipped: number;
}

/**
 * The lines of a `.jsonl` or `.jsonl.gz` file (gunzipped when the name ends in `.gz`), streamed; a file that
 * cannot be read fails the iteration.
 */
export function linesOf(path: string): AsyncIterable<string> {
  const file = createReadStream(path);
  const stream: Readable = path.endsWith(".gz") ? file.pipe(createGunzip()) : file;
  file.on("error", (error) => stream.destroy(error));
  return createInterface({ input: stream, crlfDelay: Infinity });
}

/**
 * Reads one `.jsonl[.gz]` file's rows into `add`: corpus rows, or, when its first line opens a runtime's saved
 * session (see sessionFormatOf), that session's calls, named `<runtime>:<name>`. Returns the lines skipped.
 */
async function readLines(path: string, name: string, add: (row: CorpusRow) => void): Promise<number> {
  let read = 0;
  let skipped = 0;
  let session: { format: SessionFormat; lines: string[] } | undefined;
  for await (const line of linesOf(path)) {
    if (session !== undefined) {
      session.lines.push(line);
      continue;
    }
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Not JSON: counted below like any malformed row.
      value = undefined;
    }
    const format = read === 0 && skipped === 0 ? sessionFormatOf(value) : undefined;
    if (format !== undefined) {
      session = { format, lines: [line] };
      continue;
    }
    const row = corpusRowFrom(value);
    if (row === undefined) skipped++;
    else {
      read++;
      add(row);
    }
  }
  if (session === undefined) return skipped;
  const rows = session.format.rowsOf(session.lines.join("\n"), `${session.format.runtime}:${name}`);
  rows?.forEach(add);
  return rows === undefined ? 1 : 0;
}

/** The rows of one mini-SWE-agent trajectory file; a file that is not one counts as one skipped line. */
async function trajectoryRows(file: TrajectoryFile): Promise<CorpusRow[] | undefined> {
  const text = await readFile(file.path, "utf8");
  try {
    return rowsOfMiniSweAgentTrajectory(JSON.parse(text), `mini-swe-agent:${file.name}`);
  } catch {
    // Not JSON: skipped like a malformed line.
    return undefined;
  }
}

/**
 * Streams `.jsonl` or `.jsonl.gz` files (gzip when the name ends in `.gz`),
 * one JSON object a line — or a runtime's saved session (Claude Code's
 * transcript, Codex's rollout, Gemini CLI's chat), known by its first line — reads
 * mini-SWE-agent trajectory files (`.traj.json`), a string path named by its
 * base name, and groups valid
 * rows by (agent_system, trajectory_id), ordered by step. Blank lines are
 * ignored; malformed lines, and trajectory files that are not one, are
 * counted in `skipped`.
 *
 * @throws AppError `not_found` when a file cannot be read, `invalid_argument`
 *   when it is not gzip although named `.gz`
 */
export async function readCorpus(paths: readonly (string | TrajectoryFile)[]): Promise<Corpus> {
  const groups = new Map<string, CorpusRow[]>();
  let rows = 0;
  let skipped = 0;
  const add = (row: CorpusRow): void => {
    rows++;
    const key = JSON.stringify([row.agentSystem, row.trajectoryId]);
    const group = groups.get(key) ?? [];
    group.push(row);
    groups.set(key, group);
  };
  for (const entry of paths) {
    const { path, name } = typeof entry === "string" ? { path: entry, name: basename(entry) } : entry;
    try {
      if (path.endsWith(".traj.json")) {
        const read = await trajectoryRows({ path, name });
        if (read === undefined) skipped++;
        else read.forEach(add);
        continue;
      }
      skipped += await readLines(path, name.replace(/\.jsonl(\.gz)?$/, ""), add);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT" || code === "EACCES" || code === "EISDIR")
        throw new AppError("not_found", `corpus file not readable [path=${path}]`, { cause: error });
      throw new AppError(
        "invalid_argument",
        `corpus file is not jsonl, gzip or a trajectory [path=${path}, reason=${error instanceof Error ? error.message : String(error)}]`,
        { cause: error },
      );
    }
  }
  const trajectories = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, group]): Trajectory => {
      const sorted = group.sort((a, b) => a.step - b.step);
      const first = sorted[0] as CorpusRow;
      return { agentSystem: first.agentSystem, id: first.trajectoryId, rows: sorted };
    });
  return { trajectories, rows, skipped };
}

/**
 * `dev` or `test`: the deterministic half a trajectory belongs to (FNV-1a of
 * its id; about 50% each). A row made from a recorded trajectory
 * (`<recorded id>#replay:<step>`) goes with the trajectory it came from, so
 * tuning on dev never sees test's tasks.
 */
export function splitOf(trajectoryId: string): "dev" | "test" {
  const hashed = trajectoryId.includes("#replay:") ? trajectoryId.slice(0, trajectoryId.indexOf("#replay:")) : trajectoryId;
  let hash = 0x811c9dc5;
  for (let index = 0; index < hashed.length; index++) {
    hash ^= hashed.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  // The top bit: the low bits of FNV-1a depend only on the parity of the characters.
  return hash >>> 31 === 0 ? "dev" : "test";
}
