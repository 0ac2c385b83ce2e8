import { writeFile } from "node:fs/promises";
import { createLoupeClient, type LoupeClient } from "@loupe/client";
import { AppError } from "@loupe/errors";
import {
  blindComparisons,
  createProgress,
  DEFAULT_POLICY_NAMES,
  findCorpusFiles,
  formatNoteHtml,
  formatNoteTable,
  formatReportHtml,
  formatLongTable,
  formatReportTable,
  isLoupeView,
  needsLoupe,
  readCorpus,
  resolvePolicies,
  runEval,
  runNoteEval,
  startLoupeServer,
  type LoupeServer,
  type Trajectory,
} from "@loupe/eval";
import { parseWindows, selectTrajectories, takeRepeatable } from "./eval-args.js";
import { openJsonLinesFile } from "./json-lines-file.js";
import { parseFlags } from "./parse-flags.js";

// The embedded server's save budget in an eval (LOUPE_ARCHIVE_TIMEOUT_MS in the environment still wins).
const EVAL_ARCHIVE_TIMEOUT_MS = 60_000;

/** Connects to --addr, or starts embedded Loupe by running this same program with `serve`. */
async function connectLoupe(address: string | undefined, env: NodeJS.ProcessEnv): Promise<{ client: LoupeClient; server?: LoupeServer }> {
  if (address !== undefined) return { client: createLoupeClient({ address, timeoutMs: 60_000 }) };
  const main = process.argv[1];
  if (main === undefined) throw new AppError("failed_precondition", "cannot tell how to start loupe serve (no script path)");
  // A measurement, not a live call: a save slowed by a busy machine must not fall back to a fail-open view.
  const server = await startLoupeServer({
    command: [process.execPath, ...process.execArgv, main, "serve"],
    env: { LOUPE_ARCHIVE_TIMEOUT_MS: String(EVAL_ARCHIVE_TIMEOUT_MS), ...env },
  });
  return { client: createLoupeClient({ address: server.address, timeoutMs: 60_000 }), server };
}

/** `loupe eval --notes W[,W…]`: the note-quality replay (see `runNoteEval`) instead of the policies. */
async function notesCommand(
  windows: readonly number[],
  trajectories: readonly Trajectory[],
  flags: { addr?: string; html?: string; json: boolean; meta: Record<string, unknown> },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const started = Date.now();
  const loupe = await connectLoupe(flags.addr, env);
  try {
    process.stderr.write(`eval: note replay of ${String(trajectories.length)} trajectories at ${windows.map(String).join(", ")} tokens\n`);
    const reports = await runNoteEval(loupe.client, trajectories, { windows, onProgress: createProgress(process.stderr) });
    const elapsedMs = Date.now() - started;
    if (flags.html !== undefined) await writeFile(flags.html, formatNoteHtml(reports, `loupe eval --notes (${String(flags.meta["split"])})`));
    if (flags.json) process.stdout.write(JSON.stringify({ ...flags.meta, elapsedMs, notes: reports }) + "\n");
    else process.stdout.write(formatNoteTable(reports) + "\n");
    process.stderr.write(`eval: done in ${(elapsedMs / 1000).toFixed(1)}s\n`);
    return 0;
  } finally {
    loupe.client.close();
    await loupe.server?.stop();
  }
}

/** Says on stderr how many outputs are Loupe's own views (a session recorded with its hooks in place): replaying them measures nothing. */
function warnOfLoupeViews(trajectories: readonly Trajectory[]): void {
  const rows = trajectories.flatMap((trajectory) => trajectory.rows);
  const views = rows.filter((row) => isLoupeView(row.output)).length;
  if (views > 0)
    process.stderr.write(
      `eval: ${String(views)} of ${String(rows.length)} outputs are already Loupe's views (recorded with its hooks in place): they measure nothing; replay sessions from before\n`,
    );
}

/**
 * `loupe eval --corpus F… [--policy a,b] [--rule spec]… [--limit-trajectories N]
 * [--split dev|test] [--addr HOST:PORT] [--json] [--html FILE] [--misses FILE] [--views FILE]`:
 * replays recorded trajectories under context policies and prints, per agent
 * system and pooled, tokens carried, first-view tokens and evidence kept;
 * `--misses` writes every evidence item a first view left out, and `--views`
 * every first view that cut its output, one JSON object a line (see
 * EvidenceMiss, FirstViewRecord), for tuning on the dev split. Loupe
 * policies use --addr, or an embedded `loupe serve` started for the run.
 * With `--notes W[,W…]` it replays the trajectories as turns instead and
 * measures the handover notes at compaction within each window.
 */
export async function evalCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { rest, corpus, rule } = takeRepeatable(args);
  const flags = parseFlags(rest, ["policy", "limit-trajectories", "split", "addr", "html", "notes", "misses", "views"], ["json"]);
  const files = await findCorpusFiles([...corpus, ...flags.positionals]);
  const names =
    flags.values.policy === undefined
      ? [...DEFAULT_POLICY_NAMES]
      : flags.values.policy
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== "");
  resolvePolicies(
    names.filter((name) => !needsLoupe([name])),
    rule,
    undefined,
  );
  const windows = flags.values.notes === undefined ? undefined : parseWindows(flags.values.notes);
  const started = Date.now();
  const read = await readCorpus(files);
  const trajectories = selectTrajectories(read.trajectories, flags.values.split, flags.values["limit-trajectories"]);
  const paths = files.map((file) => (typeof file === "string" ? file : file.path));
  warnOfLoupeViews(trajectories);
  if (windows !== undefined) {
    for (const flag of ["misses", "views"] as const)
      if (flags.values[flag] !== undefined) throw new AppError("invalid_argument", `--${flag} applies to the policies' replay, not to --notes`);
    const meta = { corpus: paths, split: flags.values.split ?? "all", rowsRead: read.rows, rowsSkipped: read.skipped };
    return notesCommand(
      windows,
      trajectories,
      {
        ...(flags.values.addr === undefined ? {} : { addr: flags.values.addr }),
        ...(flags.values.html === undefined ? {} : { html: flags.values.html }),
        json: flags.switches.has("json"),
        meta,
      },
      env,
    );
  }
  const loupe = needsLoupe(names) ? await connectLoupe(flags.values.addr, env) : undefined;
  try {
    const policies = resolvePolicies(names, rule, loupe?.client);
    process.stderr.write(
      `eval: ${String(trajectories.length)} trajectories, ${String(policies.length)} policies${read.skipped > 0 ? `, ${String(read.skipped)} malformed rows skipped` : ""}\n`,
    );
    // Misses and views go to their files as the replay goes: together they are far larger than the report.
    const misses = flags.values.misses === undefined ? undefined : await openJsonLinesFile("--misses", flags.values.misses);
    const views = flags.values.views === undefined ? undefined : await openJsonLinesFile("--views", flags.values.views);
    const report = await runEval(trajectories, {
      policies,
      onProgress: createProgress(process.stderr),
      ...(misses === undefined ? {} : { onMisses: (records: readonly object[]) => misses.write(records) }),
      ...(views === undefined ? {} : { onViews: (records: readonly object[]) => views.write(records) }),
    });
    await misses?.close();
    await views?.close();
    const elapsedMs = Date.now() - started;
    if (flags.values.html !== undefined) await writeFile(flags.values.html, formatReportHtml(report, `loupe eval (${flags.values.split ?? "all"})`));
    if (flags.switches.has("json")) {
      const meta = { corpus: paths, split: flags.values.split ?? "all", rowsRead: read.rows, rowsSkipped: read.skipped, elapsedMs };
      process.stdout.write(JSON.stringify({ ...meta, ...report, againstBlind: blindComparisons(report) }) + "\n");
    } else process.stdout.write(formatReportTable(report) + "\n" + formatLongTable(report) + "\n");
    process.stderr.write(`eval: done in ${(elapsedMs / 1000).toFixed(1)}s\n`);
    return 0;
  } finally {
    loupe?.client.close();
    await loupe?.server?.stop();
  }
}
