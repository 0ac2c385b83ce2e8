import { AppError } from "@loupe/errors";
import { splitOf, type Trajectory } from "@loupe/eval";

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
