import { createHash } from "node:crypto";
import { compareViews, formatViewComparison, linesOf, type ComparedView } from "@loupe/eval";
import { AppError } from "@loupe/errors";
import { parseFlags } from "./parse-flags.js";

const NUMBER_FIELDS = ["step", "evidence", "in_view"] as const;
const STRING_FIELDS = ["policy", "trajectory_id", "output_kind", "view"] as const;

/**
 * The first views of a `loupe eval --views` file (gzipped when its name ends in `.gz`), each view's text kept as its SHA-256 (a comparison only
 * tells views apart), of `policies` only when given.
 * @throws AppError `invalid_argument` for a file that cannot be read or a line that is not such a record (its path and line number)
 */
async function readViews(path: string, policies: ReadonlySet<string> | undefined): Promise<ComparedView[]> {
  const views: ComparedView[] = [];
  let number = 0;
  try {
    for await (const line of linesOf(path)) {
      number++;
      if (line.trim() === "") continue;
      const where = `[path=${path}, line=${String(number)}]`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new AppError("invalid_argument", `not a JSON line of loupe eval --views ${where}`);
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new AppError("invalid_argument", `not a first-view record of loupe eval --views ${where} (not an object)`);
      const record = parsed as Record<string, unknown>;
      const wrong = [
        ...NUMBER_FIELDS.filter((field) => !Number.isSafeInteger(record[field])),
        ...STRING_FIELDS.filter((field) => typeof record[field] !== "string"),
        ...(typeof record["long"] === "boolean" ? [] : ["long"]),
      ];
      if (wrong.length > 0) throw new AppError("invalid_argument", `not a first-view record of loupe eval --views ${where} (fields: ${wrong.join(", ")})`);
      const view = record as unknown as ComparedView;
      if (policies !== undefined && !policies.has(view.policy)) continue;
      views.push({ ...view, view: createHash("sha256").update(view.view).digest("hex") });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("invalid_argument", `views file cannot be read [path=${path}, reason=${error instanceof Error ? error.message : String(error)}]`, {
      cause: error,
    });
  }
  return views;
}

/**
 * `loupe eval-compare BEFORE AFTER [--policy a,b] [--show N] [--json]`: two runs' first views (`loupe eval
 * --views` of the same corpus and split, before and after a change) compared output by output — per policy
 * in both, the views that changed and the evidence items each output's view gained or lost, with the
 * outputs that lost most and gained most (docs/evaluation.md).
 */
export async function evalCompareCommand(args: readonly string[]): Promise<number> {
  const flags = parseFlags(args, ["policy", "show"], ["json"]);
  const [beforePath, afterPath, ...extra] = flags.positionals;
  if (beforePath === undefined || afterPath === undefined || extra.length > 0)
    throw new AppError("invalid_argument", "eval-compare takes two files written by loupe eval --views: BEFORE AFTER");
  const show = flags.values.show === undefined ? 10 : Number(flags.values.show);
  if (!Number.isSafeInteger(show) || show < 0) throw new AppError("invalid_argument", `--show must be a whole number [show=${flags.values.show ?? ""}]`);
  const names = flags.values.policy
    ?.split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const policies = names === undefined ? undefined : new Set(names);
  const [before, after] = await Promise.all([readViews(beforePath, policies), readViews(afterPath, policies)]);
  const comparisons = compareViews(before, after);
  if (flags.switches.has("json")) process.stdout.write(JSON.stringify({ comparisons }) + "\n");
  else process.stdout.write(formatViewComparison(comparisons, show) + "\n");
  return 0;
}
