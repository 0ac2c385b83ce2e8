/** Short options that take a value, per search program: in a cluster, the rest of the cluster is their value. */
const VALUE_OPTIONS: Readonly<Record<string, string>> = { rg: "efgtTmABCjMEr", default: "efmABCdDX" };
/** Long options that make a search print the names of files instead of their matching lines. */
const FILES_ONLY_LONG = new Set(["--files-with-matches", "--files-without-match", "--files-without-matches", "--files", "--name-only"]);

/**
 * Whether a search program (grep and its kin, rg, ag, ack, `git grep`) prints only the names of files: `-l`,
 * `-L` (for rg `-L` follows links), alone or in a cluster (`-rl`), or a long option such as
 * `--files-with-matches`. The value of an option that takes one (`-e -l`) is not read as an option; nothing
 * after `--` is.
 */
export function printsFileNames(program: string, args: readonly string[]): boolean {
  const valued = VALUE_OPTIONS[program] ?? VALUE_OPTIONS["default"] ?? "";
  const letters = program === "rg" ? "l" : "lL";
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") return false;
    if (arg.startsWith("--")) {
      if (FILES_ONLY_LONG.has(arg)) return true;
      continue;
    }
    if (!/^-[A-Za-z]/.test(arg)) continue;
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at] as string;
      if (letters.includes(letter)) return true;
      if (valued.includes(letter)) {
        // The value follows in this word, or is the next word.
        if (at === arg.length - 1) index++;
        break;
      }
    }
  }
  return false;
}
