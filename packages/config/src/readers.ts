/** Environment variables as a plain record (process.env or a test's object). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Collects every problem a loader finds, so start-up reports them all at once. */
export type ConfigProblems = string[];

function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** Reads a string; blank or unset → `fallback`. */
export function readString(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

/** Reads an optional string; blank or unset → undefined. */
export function readOptionalString(env: Env, name: string): string | undefined {
  return raw(env, name);
}

/** Options for {@link readInt}. */
export interface ReadIntOptions {
  min?: number;
  max?: number;
}

/**
 * Reads a whole number within [min, max]; blank or unset → `fallback`. A bad
 * value adds a line to `problems` and returns `fallback`.
 */
export function readInt(env: Env, name: string, fallback: number, problems: ConfigProblems, options: ReadIntOptions = {}): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const min = options.min ?? Number.MIN_SAFE_INTEGER;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  if (!/^-?\d+$/.test(value)) {
    problems.push(`${name}=${JSON.stringify(value)} is not a whole number`);
    return fallback;
  }
  const parsed = Number(value);
  if (parsed < min || parsed > max) {
    problems.push(`${name}=${value} is outside [${String(min)}, ${String(max)}]`);
    return fallback;
  }
  return parsed;
}

/** Reads a TCP port (0–65535; 0 = pick a free one). */
export function readPort(env: Env, name: string, fallback: number, problems: ConfigProblems): number {
  return readInt(env, name, fallback, problems, { min: 0, max: 65_535 });
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

/** Reads a boolean (1/0, true/false, yes/no, on/off; any case); blank → `fallback`. */
export function readBool(env: Env, name: string, fallback: boolean, problems: ConfigProblems): boolean {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  problems.push(`${name}=${JSON.stringify(value)} is not a boolean (true/false)`);
  return fallback;
}

/** Reads a comma-separated list (items trimmed, blanks dropped); blank → `fallback`. */
export function readList(env: Env, name: string, fallback: readonly string[]): string[] {
  const value = raw(env, name);
  if (value === undefined) return [...fallback];
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** Reads one of `choices`; a value outside them is a problem. */
export function readEnum<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T, problems: ConfigProblems): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  problems.push(`${name}=${JSON.stringify(value)} is not one of ${choices.join(", ")}`);
  return fallback;
}

/** Reads a URL with one of the given protocols (e.g. ["nats:"]). */
export function readUrl(env: Env, name: string, fallback: string, protocols: readonly string[], problems: ConfigProblems): string {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  try {
    const url = new URL(value);
    if (!protocols.includes(url.protocol)) {
      problems.push(`${name}=${value} must use ${protocols.join(" or ")}`);
      return fallback;
    }
    return value;
  } catch {
    // URL throws a TypeError with no useful detail: report the variable instead.
    problems.push(`${name}=${JSON.stringify(value)} is not a URL`);
    return fallback;
  }
}
