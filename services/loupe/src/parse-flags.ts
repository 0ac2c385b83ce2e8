import { AppError } from "@loupe/errors";

/** Parsed command-line flags. */
export interface Flags {
  values: Partial<Record<string, string>>;
  switches: Set<string>;
  positionals: string[];
}

/**
 * Parses `--name value`, `--name=value` and `--switch` arguments.
 * @throws AppError `invalid_argument` for an unknown flag or a missing value
 */
export function parseFlags(args: readonly string[], valueNames: readonly string[], switchNames: readonly string[]): Flags {
  const flags: Flags = { values: {}, switches: new Set(), positionals: [] };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? "";
    if (!arg.startsWith("--")) {
      flags.positionals.push(arg);
      continue;
    }
    const [name = "", inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (switchNames.includes(name)) flags.switches.add(name);
    else if (valueNames.includes(name)) {
      const value = inline ?? args[++index];
      if (value === undefined) throw new AppError("invalid_argument", `--${name} needs a value`);
      flags.values[name] = value;
    } else throw new AppError("invalid_argument", `unknown flag --${name}`);
  }
  return flags;
}
