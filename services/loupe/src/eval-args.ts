import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@loupe/errors";
import { splitOf, type Trajectory, type TrajectoryFile } from "@loupe/eval";

const REPEATABLE = ["corpus", "rule"] as const;

/** Pulls the repeatable flags (`--corpus F`, `--rule R`, also as `--x=v`) out of `args`. */
export function takeRepeatable(args: readonly string[]): { rest: string[]; corpus: string[]; rule: string[] } {
  const taken = { rest: [] as string[], corpus: [] as string[], rule: [] as string[] };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    const name = REPEATABLE.find((flag) => arg === `--${flag}` || arg.startsWith(`--${flag}=`));
    if (name === undefined) {
      taken.rest.push(arg);
      continue;
    }
    const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++index];
    if (value === undefined) throw new AppError("invalid_argument", `--${name} needs a value`);
    taken[name].push(value);
  }
  return taken;
}

// Files a folder's subfolders give: mini-SWE-agent's trajectories, Codex's rollouts, Gemini CLI's chats and Claude Code's
// sessions (named by their id).
const SAVED_RUN = /(?:\.traj\.json|^rollout-.*\.jsonl|^session-.*\.jsonl|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl)$/;

/** The saved runs in the folders under `root` (see SAVED_RUN; `*.traj.json` in `root` too), named by their path under it. */
async function savedRunsUnder(root: string, under = ""): Promise<TrajectoryFile[]> {
  const found: TrajectoryFile[] = [];
  const entries = (await readdir(join(root, under), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const name = under === "" ? entry.name : `${under}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await savedRunsUnder(root, name)));
    else if (entry.isFile() && (entry.name.endsWith(".traj.json") || (under !== "" && SAVED_RUN.test(entry.name))))
      found.push({ path: join(root, name), name });
  }
  return found;
}

/**
 * Corpus files: each path as it is, or a directory's *.jsonl and *.jsonl.gz files and, in it or in its folders,
 * mini-SWE-agent's trajectories (*.traj.json), and in its folders Codex's rollouts (rollout-*.jsonl), Gemini CLI's
 * chats (session-*.jsonl) and Claude Code's sessions (<uuid>.jsonl) — so `~/.codex/sessions`, `~/.gemini/tmp` and
 * `~/.claude/projects` read whole.
 */
export async function corpusFiles(paths: readonly string[]): Promise<(string | TrajectoryFile)[]> {
  const files: (string | TrajectoryFile)[] = [];
  for (const path of paths) {
    const info = await stat(path).catch((error: unknown) => {
      throw new AppError("not_found", `corpus path not found [path=${path}]`, { cause: error });
    });
    if (!info.isDirectory()) files.push(path);
    else
      files.push(
        ...(await readdir(path))
          .filter((name) => /\.jsonl(\.gz)?$/.test(name))
          .sort()
          .map((name) => join(path, name)),
        ...(await savedRunsUnder(path)),
      );
  }
  if (files.length === 0) throw new AppError("invalid_argument", "loupe eval needs --corpus <file.jsonl[.gz]|file.traj.json|dir> (one or more)");
  return files;
}

/** The trajectories of `--split` (all without it), at most `--limit-trajectories` of them taken round-robin over agent systems. */
export function selectTrajectories(all: readonly Trajectory[], split: string | undefined, limit: string | undefined): Trajectory[] {
  if (split !== undefined && split !== "dev" && split !== "test") throw new AppError("invalid_argument", `--split must be dev or test [split=${split}]`);
  const chosen = split === undefined ? [...all] : all.filter((trajectory) => splitOf(trajectory.id) === split);
  if (limit === undefined) return chosen;
  const count = Number(limit);
  if (!Number.isSafeInteger(count) || count < 1) throw new AppError("invalid_argument", `--limit-trajectories must be a whole number ≥ 1 [limit=${limit}]`);
  // Round-robin over agent systems, so a small sample covers each of them.
  const bySystem = new Map<string, Trajectory[]>();
  for (const trajectory of chosen) bySystem.set(trajectory.agentSystem, [...(bySystem.get(trajectory.agentSystem) ?? []), trajectory]);
  const sample: Trajectory[] = [];
  for (let round = 0; sample.length < Math.min(count, chosen.length); round++) {
    for (const group of bySystem.values()) if (round < group.length && sample.length < count) sample.push(group[round] as Trajectory);
  }
  return sample;
}

/** Parses `--notes 16000,32000`: the windows the note-quality replay compacts within. */
export function parseWindows(value: string): number[] {
  const windows = value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map(Number);
  if (windows.length === 0 || windows.some((window) => !Number.isSafeInteger(window) || window < 2000 || window > 10_000_000)) {
    throw new AppError("invalid_argument", `--notes takes context windows in tokens, 2000 to 10000000, comma-separated [notes=${value}]`);
  }
  return windows;
}
