import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import type { ResultKind } from "../projectors/projector.js";
import { contentKind } from "./content-kind.js";
import { inferKind } from "./infer-kind.js";
import { corpusDir } from "../testing/corpus-dir.js";

// Kind inference measured against the corpus's `tool_detail` label (docs/kind-inference.md).
// The corpus lives in ../shared beside the repository; a user's clone does not have it.
const CORPUS_DIR = corpusDir() + "/";
const CORPUS_FILES = ["mini-swe-agent.jsonl.gz", "swe-agent.jsonl.gz", "openhands.jsonl.gz"];
/** Required accuracy on scored calls; see docs/kind-inference.md for why. */
const MIN_ACCURACY = 0.99;
const MIN_ACCURACY_PER_SYSTEM = 0.95;

/**
 * The expected kind for each corpus `tool_detail` (the program a call runs),
 * the independent label kind inference is measured against (see
 * docs/kind-inference.md). Programs not listed are "command".
 */
const EXPECTED_KIND_BY_DETAIL: ReadonlyMap<string, ResultKind> = new Map<string, ResultKind>([
  ...entries("file_read", ["cat", "sed", "head", "tail", "nl", "less", "more", "awk", "open", "goto", "scroll_up", "scroll_down", "str_replace_editor view"]),
  ...entries("search", ["grep", "egrep", "fgrep", "rg", "ag", "ack", "search_dir", "search_file"]),
  ...entries("directory_list", ["find", "ls", "tree", "fd", "pwd", "find_file"]),
  ...entries("edit", [
    "edit",
    "create",
    "insert",
    "set_cursors",
    "patch",
    "str_replace_editor str_replace",
    "str_replace_editor insert",
    "str_replace_editor create",
  ]),
  ...entries("generic", ["think"]),
]);

function entries(kind: ResultKind, details: string[]): [string, ResultKind][] {
  return details.map((detail) => [detail, kind]);
}

/** How the expected kind was found: from the table, refined by one of the rules, or from the program after an unlabelled part. */
type Rule = "table" | "writes a file" | "sed -i" | "reader | grep" | "find + grep" | "find + grep -l" | "grep -l" | "git grep" | DerivedRule;
/** A grep (egrep, rg) printing file names alone: -l, -L or a cluster holding them, --files-with(out)-match(es). */
const FILES_ONLY_GREP = /\b(?:grep|egrep|rg)\b(?:\s+(?:-\S+|'[^']*'|"[^"]*"))*?\s+(?:-[A-Za-z]*[lL][A-Za-z]*|--files-with(?:out)?-match(?:es)?)(?=\s|$)/;
/** Whether the last grep of a pipeline that reads files (not a `| grep -v x` filter of its lines) prints file names alone. */
function lastGrepPrintsFiles(pipeline: string): boolean {
  const readers = [...pipeline.matchAll(/(?:^|-exec\s+|xargs(?:\s+-\S+)*\s+)((?:grep|egrep|rg)\b[^|;]*)/g)];
  return FILES_ONLY_GREP.test(readers.at(-1)?.[1] ?? "");
}
type DerivedRule = "after a write" | "after a silent command" | "after a comment";
type Expected = { kind: ResultKind; rule: Rule } | { unscored: string };
const DERIVED: ReadonlySet<Rule> = new Set<Rule>(["after a write", "after a silent command", "after a comment"]);

const SILENT_DETAILS = new Set(["cp", "mv", "rm", "mkdir", "touch", "cd"]);
const READER_DETAILS = new Set(["cat", "head", "tail", "sed", "nl", "awk"]);

/**
 * The expected kind of one corpus call: the table's kind for its tool_detail,
 * refined by the rules the issue states for shell commands, each recognized by
 * a plain pattern on the command text, independent of `shellKind`: a labelled
 * program that writes a file (`cat > f <<EOF`, `echo … > f`) or `sed -i` is an
 * edit; a reader piped into grep, `find` running grep and `git grep` are
 * searches. Where the labelled program prints nothing (a write, cp, mkdir,
 * `sed -i`) or the label is a comment ("#") and more commands follow, the
 * output is the next program's: the label is derived from that program's name
 * the same way, and reported apart.
 */
function expectedKind(detail: string, command: string): Expected {
  if (detail === "#") return derived(command.replace(/^(?:[ \t]*(?:#[^\n]*)?\n)+/, ""), "after a comment");
  const plain = EXPECTED_KIND_BY_DETAIL.get(detail) ?? "command";
  const body = command.replace(/^(\s*cd\s+\S+\s*&&\s*)+/, "");
  const unquoted = (body.split("\n")[0] ?? "").replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, "''");
  const firstSegment = unquoted.split(/&&|\|\||;|\|/)[0] ?? "";
  if (/(^|[^0-9&>])>>?\s*[^&\s>]/.test(firstSegment) && !/>\s*\/dev\/null/.test(firstSegment)) {
    const rest = restAfterWrite(body);
    return rest === undefined ? { kind: "edit", rule: "writes a file" } : derived(rest, "after a write");
  }
  const inPlace = detail === "sed" && /(^|\s)(-[a-zA-Z]*i\S*|--in-place)(\s|$)/.test(firstSegment);
  if (SILENT_DETAILS.has(detail) || inPlace) {
    const rest = restAfterFirstCommand(body);
    if (rest !== undefined) return derived(rest, "after a silent command");
    return inPlace ? { kind: "edit", rule: "sed -i" } : { kind: plain, rule: "table" };
  }
  const firstPipeline = unquoted.split(/&&|\|\||(?<!\\);/)[0] ?? "";
  if (READER_DETAILS.has(detail) && /\|\s*(grep|egrep|rg)\b/.test(firstPipeline)) return { kind: "search", rule: "reader | grep" };
  if (detail === "find" && /-exec\s+(grep|egrep|rg)\b|\|\s*xargs\s+(-\S+\s+)*(grep|egrep|rg)\b/.test(firstPipeline))
    // grep -l prints the names of the files that match: a list of paths.
    return lastGrepPrintsFiles(firstPipeline) ? { kind: "directory_list", rule: "find + grep -l" } : { kind: "search", rule: "find + grep" };
  if (detail === "grep" && lastGrepPrintsFiles(firstPipeline)) return { kind: "directory_list", rule: "grep -l" };
  if (detail === "git" && /^\s*git\s+grep\b/.test(firstSegment)) return { kind: "search", rule: "git grep" };
  return { kind: plain, rule: "table" };
}

function derived(rest: string, rule: DerivedRule): Expected {
  const next = rest.trimStart();
  const words = next
    .replace(/^(cd\s+\S+\s*&&\s*)+/, "")
    .split(/\s+/)
    .filter((word) => !/^[A-Za-z_]\w*=/.test(word));
  const first = words[0] ?? "";
  if (first === "") return { unscored: `nothing ${rule}` };
  const expected = expectedKind(first.startsWith("#") ? "#" : first.slice(first.lastIndexOf("/") + 1), next);
  return "unscored" in expected ? expected : { kind: expected.kind, rule };
}

/** The commands after a write: after its here-document's terminator line, or after the first separator. */
function restAfterWrite(body: string): string | undefined {
  const firstLine = body.split("\n")[0] ?? "";
  const heredoc = /<<-?\s*(?:'([^']+)'|"([^"]+)"|([\w.-]+))/.exec(firstLine);
  if (heredoc === null) return restAfterFirstCommand(body);
  const delimiter = heredoc[1] ?? heredoc[2] ?? heredoc[3] ?? "";
  const lines = body.split("\n");
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === delimiter);
  const rest = end === -1 ? "" : lines.slice(end + 1).join("\n");
  if (/\S/.test(rest)) return rest;
  return restAfterFirstCommand(firstLine.slice(firstLine.indexOf(heredoc[0]) + heredoc[0].length));
}

/** The text after the first `&&`, `||`, `;` or newline outside quotes, when something follows. */
function restAfterFirstCommand(body: string): string | undefined {
  for (const match of body.matchAll(/'[^']*'|"(?:\\.|[^"\\])*"|&&|\|\||;|\n/g)) {
    if (match[0].startsWith("'") || match[0].startsWith('"')) continue;
    const rest = body.slice(match.index + match[0].length);
    return /\S/.test(rest) ? rest : undefined;
  }
  return undefined;
}

interface Row {
  agent_system: string;
  trajectory_id: string;
  tool: string;
  tool_detail: string;
  args: unknown;
  output: string;
}

function readCorpus(): Row[] {
  return CORPUS_FILES.flatMap((file) =>
    gunzipSync(readFileSync(CORPUS_DIR + file))
      .toString("utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Row),
  );
}

class Tally {
  readonly counts = new Map<string, { scored: number; correct: number }>();
  add(key: string, correct: boolean): void {
    const entry = this.counts.get(key) ?? { scored: 0, correct: 0 };
    entry.scored++;
    if (correct) entry.correct++;
    this.counts.set(key, entry);
  }
  rate(key: string): number {
    const entry = this.counts.get(key);
    return entry === undefined || entry.scored === 0 ? Number.NaN : entry.correct / entry.scored;
  }
  table(title: string, limit = 40): string {
    const rows = [...this.counts].sort((a, b) => b[1].scored - a[1].scored).slice(0, limit);
    return [
      `| ${title} | scored | correct | accuracy |`,
      "|---|---:|---:|---:|",
      ...rows.map(([key, { scored, correct }]) => `| ${key} | ${scored} | ${correct} | ${percent(correct / scored)} |`),
    ].join("\n");
  }
}

function percent(rate: number, digits = 1): string {
  return `${(rate * 100).toFixed(digits)}%`;
}

function countTable(title: string, counts: Map<string, number>, limit = 15): string {
  const rows = [...counts].sort((a, b) => b[1] - a[1]).slice(0, limit);
  return [`| ${title} | calls |`, "|---|---:|", ...rows.map(([key, count]) => `| ${key} | ${count} |`)].join("\n");
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function trajectorySummary(byTrajectory: Tally): string {
  const rates = [...byTrajectory.counts.keys()].map((key) => byTrajectory.rate(key)).sort((a, b) => a - b);
  const perfect = rates.filter((rate) => rate === 1).length;
  return `trajectories: ${rates.length}; all calls right in ${perfect}; lowest ${percent(rates[0] ?? Number.NaN)}, 5th percentile ${percent(rates[Math.floor(rates.length * 0.05)] ?? Number.NaN)}`;
}

const corpusPresent = CORPUS_FILES.every((file) => existsSync(CORPUS_DIR + file));

describe(
  "inferKind() against the corpus tool_detail label",
  { skip: corpusPresent ? false : `corpus not found at ${CORPUS_DIR} (it sits in ../shared beside the repository; a user's clone has none)` },
  () => {
    it(`agrees with the label on at least ${percent(MIN_ACCURACY)} of scored calls`, () => {
      assert.ok(readdirSync(CORPUS_DIR).length > 0);
      const rows = readCorpus();
      const overall = new Tally();
      const bySystem = new Tally();
      const byTrajectory = new Tally();
      const byDetail = new Tally();
      const byRule = new Tally();
      const directLabels = new Tally();
      const nameOnly = new Tally();
      const derivedLabels = new Tally();
      const bySize = new Tally();
      const plain = new Tally();
      const confusion = new Map<string, number>();
      const byContent = new Map<string, number>();
      const unscored = new Map<string, number>();
      const errors: string[] = [];
      for (const row of rows) {
        const args = typeof row.args === "string" ? { command: row.args } : (row.args as Record<string, unknown>);
        const command = typeof args["command"] === "string" ? args["command"] : "";
        const inferred = inferKind({ toolName: row.tool, args, text: row.output });
        plain.add("all calls", inferred === (EXPECTED_KIND_BY_DETAIL.get(row.tool_detail) ?? "command"));
        const expected = expectedKind(row.tool_detail, command);
        if ("unscored" in expected) {
          bump(unscored, `${row.tool_detail}, ${expected.unscored} → inferred ${inferred}`);
          continue;
        }
        const correct = inferred === expected.kind;
        nameOnly.add("all", inferKind({ toolName: row.tool, args: {}, text: row.output }) === expected.kind);
        if (row.output.trim() !== "") bump(byContent, `${expected.kind} → ${contentKind(row.output)}`);
        overall.add("all", correct);
        bySystem.add(row.agent_system, correct);
        byTrajectory.add(row.trajectory_id, correct);
        byDetail.add(row.tool_detail, correct);
        byRule.add(expected.rule, correct);
        (DERIVED.has(expected.rule) ? derivedLabels : directLabels).add("all", correct);
        bySize.add(row.output.trim() === "" ? "empty output" : row.output.length > 2000 ? "output > 2,000 chars" : "output 1–2,000 chars", correct);
        if (!correct) {
          const key = `${row.tool_detail}: expected ${expected.kind}, inferred ${inferred}`;
          bump(confusion, key);
          errors.push(`- ${row.agent_system} · ${key} (${expected.rule}): \`${command.replace(/\s+/g, " ").slice(0, 160)}\``);
        }
      }
      const report = [
        `corpus: ${CORPUS_FILES.join(", ")} (${rows.length} calls)`,
        `scored: ${overall.counts.get("all")?.scored ?? 0}, accuracy ${percent(overall.rate("all"), 2)}; labelled by tool_detail: ${directLabels.counts.get("all")?.scored ?? 0}, ${percent(directLabels.rate("all"), 2)}; derived: ${derivedLabels.counts.get("all")?.scored ?? 0}, ${percent(derivedLabels.rate("all"), 2)}; plain table on all calls ${percent(plain.rate("all calls"), 2)}; baseline without args (name, then content): ${percent(nameOnly.rate("all"), 2)}`,
        bySystem.table("agent system"),
        trajectorySummary(byTrajectory),
        bySize.table("output size"),
        byRule.table("rule"),
        byDetail.table("tool_detail"),
        countTable("top errors", confusion),
        errors.slice(0, 40).join("\n"),
        unscored.size === 0 ? "unscored: none" : countTable("unscored", unscored),
        countTable("content alone (non-empty outputs): expected → contentKind", byContent, 30),
      ].join("\n\n");
      console.log(report);
      assert.ok(overall.rate("all") >= MIN_ACCURACY, `accuracy ${percent(overall.rate("all"))} below ${percent(MIN_ACCURACY)}`);
      for (const system of bySystem.counts.keys()) assert.ok(bySystem.rate(system) >= MIN_ACCURACY_PER_SYSTEM, `${system}: ${percent(bySystem.rate(system))}`);
    });
  },
);
