// The command line the profile summaries share: one profile file, `--calls N` (figures per call), `--top N`
// (lines a table shows) and whatever options a summary adds; a bad one prints the usage and exits with 2.
// Also stops quietly when its output is piped into `head` and closed.
import { parseArgs, type ParseArgsConfig } from "node:util";

/** What a summary was asked for. */
export interface SummaryArgs {
  readonly file: string;
  /** The divisor of every figure: 1 unless --calls was given. */
  readonly calls: number;
  readonly perCall: boolean;
  readonly top: number;
  /** The summary's own string options, as given. */
  readonly extra: Readonly<Record<string, string | undefined>>;
}

export function summaryArgs(usage: string, defaultTop: number, extra: readonly string[] = []): SummaryArgs {
  const options: ParseArgsConfig["options"] = { calls: { type: "string" }, top: { type: "string", default: String(defaultTop) } };
  for (const name of extra) options[name] = { type: "string" };
  const { values, positionals } = parseArgs({ allowPositionals: true, options });
  const [file] = positionals;
  const calls = values["calls"] === undefined ? 1 : Number(values["calls"]);
  const top = Number(values["top"]);
  if (file === undefined || !Number.isInteger(calls) || calls < 1 || !Number.isInteger(top) || top < 1) {
    process.stderr.write(`usage: ${usage}\n(--calls and --top take whole numbers of 1 or more)\n`);
    process.exit(2);
  }
  process.stdout.on("error", (error: NodeJS.ErrnoException) => process.exit(error.code === "EPIPE" ? 0 : 1));
  const given = Object.fromEntries(extra.map((name) => [name, typeof values[name] === "string" ? values[name] : undefined]));
  return { file, calls, perCall: values["calls"] !== undefined, top, extra: given };
}
