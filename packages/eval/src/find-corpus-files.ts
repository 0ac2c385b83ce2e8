import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@loupe/errors";
import type { TrajectoryFile } from "./read-corpus.js";

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
 * The files `loupe eval --corpus` reads: each path as it is, or a directory's *.jsonl and *.jsonl.gz files and, in it or in its folders,
 * mini-SWE-agent's trajectories (*.traj.json), and in its folders Codex's rollouts (rollout-*.jsonl), Gemini CLI's
 * chats (session-*.jsonl) and Claude Code's sessions (<uuid>.jsonl) — so `~/.codex/sessions`, `~/.gemini/tmp` and
 * `~/.claude/projects` read whole.
 */
export async function findCorpusFiles(paths: readonly string[]): Promise<(string | TrajectoryFile)[]> {
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
