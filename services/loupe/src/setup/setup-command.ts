import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { currentInvocation } from "../hook/pre-tool-use.js";
import type { LoupeInvocation } from "../hook/wrap-shell-command.js";
import { parseFlags } from "../parse-flags.js";
import type { Settings } from "./merge-settings.js";
import { SETUP_RUNTIMES, setupPlan, type Edit, type SetupPaths, type SetupRuntime } from "./setup-plans.js";

const USAGE = `usage: loupe setup claude-code|codex|gemini-cli|opencode [--project] [--dry-run] [--loupe COMMAND] [--remove]`;

/** Where the runtimes' configuration lives for this process: HOME, the working folder, CODEX_HOME, XDG_CONFIG_HOME. */
export function setupPathsOf(env: NodeJS.ProcessEnv, cwd: string): SetupPaths {
  const home = env["HOME"] || homedir();
  return { home, cwd, codexHome: env["CODEX_HOME"] || join(home, ".codex"), configHome: env["XDG_CONFIG_HOME"] || join(home, ".config") };
}

/** A file's text, or undefined when it does not exist. */
async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** A settings file's object ({} when absent); throws naming the file when it is not a JSON object (comments included). */
function parseSettings(path: string, text: string | undefined): Settings {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not plain JSON (${error instanceof Error ? error.message : String(error)}); nothing was written`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`${path} does not hold a JSON object; nothing was written`);
  return parsed as Settings;
}

/** What to do with one edited file — write `text`, delete it, or leave it — and the words for what changed. */
type Planned = { action: "write"; text: string; changes: string[] } | { action: "delete" | "none"; changes: string[] };

/** The lines of a TOML text without the table `header` and its own sub-tables (`[name.env]`), up to the next table. */
function withoutTable(text: string, header: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === header);
  const own = `${header.slice(0, -1)}.`;
  const next = lines.findIndex((line, index) => index > start && /^\s*\[/.test(line) && !line.trim().startsWith(own));
  const end = next === -1 ? lines.length : next;
  const kept = lines.slice(0, start).join("\n").trimEnd();
  const after = lines.slice(end).join("\n").trim();
  // One blank line between what was before the table and what came after it.
  return [kept, after].filter((part) => part !== "").join("\n\n") + "\n";
}

function planned(edit: Edit, before: string | undefined): Planned {
  switch (edit.kind) {
    case "json": {
      const { settings, changes } = edit.apply(parseSettings(edit.path, before));
      const text = `${JSON.stringify(settings, null, 2)}\n`;
      // A file that was not there is not made to hold nothing.
      if (text === before || (before === undefined && Object.keys(settings).length === 0)) return { action: "none", changes };
      return { action: "write", text, changes };
    }
    case "file": {
      const loupes = before !== undefined && before.split("\n")[0] === edit.content.split("\n")[0];
      if (edit.remove)
        return loupes
          ? { action: "delete", changes: [`${edit.what} removed`] }
          : { action: "none", changes: [`${edit.what} ${before === undefined ? "absent" : "kept (not Loupe's)"}`] };
      if (before === edit.content) return { action: "none", changes: [`${edit.what} unchanged`] };
      // A file of the same name that is not Loupe's is the user's: never overwritten.
      if (before !== undefined && !loupes) return { action: "none", changes: [`${edit.what} not written (the file there is not Loupe's)`] };
      return { action: "write", text: edit.content, changes: [`${edit.what} ${before === undefined ? "added" : "updated"}`] };
    }
    case "toml-table": {
      const there = before !== undefined && before.split("\n").some((line) => line.trim() === edit.header);
      if (edit.remove)
        return there
          ? { action: "write", text: withoutTable(before, edit.header), changes: [`${edit.what} removed`] }
          : { action: "none", changes: [`${edit.what} absent`] };
      // A table already there is the user's: kept as it is.
      if (there) return { action: "none", changes: [`${edit.what} kept (${edit.header} is there)`] };
      const base = before === undefined || before === "" ? "" : before.endsWith("\n") ? `${before}\n` : `${before}\n\n`;
      return { action: "write", text: `${base}${edit.header}\n${edit.body}`, changes: [`${edit.what} added`] };
    }
  }
}

/** Writes `text` to `path` whole or not at all: a new file beside it (with the old file's permissions), then renamed over it. */
async function writeWhole(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const mode = await stat(path).then(
    (found) => found.mode & 0o777,
    () => 0o644,
  );
  const temporary = `${path}.loupe-${randomBytes(6).toString("hex")}`;
  await writeFile(temporary, text, { mode });
  await rename(temporary, path);
}

/**
 * `loupe setup <runtime> [--project] [--dry-run] [--loupe COMMAND] [--remove]`: wires a runtime to Loupe (see
 * setupPlan) in its user configuration, or the working folder's with `--project`, running this very
 * `loupe` by its absolute paths (or `--loupe COMMAND`, say `loupe` found on PATH), and prints one line a file naming
 * what was added, updated or kept — then what is left to do by hand. Idempotent: the runtime's
 * other settings and hooks stay as they were, and a second run changes nothing. Every file is read
 * and checked before any is written, so a file that is not plain JSON stops it with nothing
 * written; `--dry-run` prints the same lines and writes nothing; `--remove` takes out what Loupe put
 * there (its hooks, its MCP entries, its plugin and TOML table), and nothing else. Returns 0, or 2
 * for bad usage or an unreadable file.
 */
export async function setupCommand(args: readonly string[], env: NodeJS.ProcessEnv, invocation: LoupeInvocation = currentInvocation()): Promise<number> {
  try {
    const flags = parseFlags(args, ["loupe"], ["project", "dry-run", "remove"]);
    const command = flags.values.loupe;
    if (command !== undefined && command.trim() === "") throw new Error("--loupe needs a command");
    const [runtime, extra] = flags.positionals;
    if (!(SETUP_RUNTIMES as readonly string[]).includes(runtime ?? "") || extra !== undefined)
      throw new Error(`unknown runtime ${JSON.stringify(runtime ?? "")}`);
    const plan = setupPlan(
      runtime as SetupRuntime,
      flags.switches.has("project") ? "project" : "user",
      setupPathsOf(env, process.cwd()),
      command === undefined ? invocation : { argv: [command] },
      flags.switches.has("remove"),
    );
    const edits = await Promise.all(plan.edits.map(async (edit) => ({ edit, ...planned(edit, await readIfThere(edit.path)) })));
    const dryRun = flags.switches.has("dry-run");
    for (const { edit, ...done } of edits) {
      if (!dryRun && done.action === "write") await writeWhole(edit.path, done.text);
      if (!dryRun && done.action === "delete") await rm(edit.path, { force: true });
      process.stdout.write(`${edit.path}: ${done.changes.join("; ")}${dryRun && done.action !== "none" ? " (dry run: not written)" : ""}\n`);
    }
    for (const note of plan.notes) process.stdout.write(`next: ${note}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`loupe setup: ${error instanceof Error ? error.message : String(error)}; ${USAGE}\n`);
    return 2;
  }
}
