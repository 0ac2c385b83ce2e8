import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { DECLARATION_MAP_OPENING } from "../file-read/declaration-map.js";
import { projectFileRead } from "../file-read/project-file-read.js";
import { projectHeadTail } from "../head-tail-view.js";
import { LISTING_MAP_OPENING } from "../listing/listing-map.js";
import { projectListing } from "../listing/project-listing.js";
import type { Projector } from "../projectors/projector.js";
import { splitLines } from "../split-lines.js";
import { createTokenCounter } from "../token-counter.js";
import { projectSearch } from "./project-search.js";
import { corpusDir } from "../testing/corpus-dir.js";

// Real agent trajectories (shared/corpus, not part of a clone): does the evidence the agent used next survive
// the file-read, search and listing projectors as well as a plain head/tail cut?
const CORPUS_DIR = corpusDir();
const FILES = ["mini-swe-agent", "swe-agent", "openhands"].map((name) => `${CORPUS_DIR}/${name}.jsonl.gz`);
// Asserted at 500 and 2,000 tokens; 1,000 is printed too (outlines of reads start to pay off there).
const BUDGETS = [500, 1000, 2000];
const ASSERTED = new Set([500, 2000]);
const counter = createTokenCounter();

interface CorpusCall {
  tool: string;
  args: unknown;
  output: string;
  output_as_seen?: string;
  next_action: string;
  task: string;
  tool_detail?: string;
  agent_system: string;
}

type Kind = "read" | "search" | "listing";
const PROJECTORS: Record<Kind, Projector> = { read: projectFileRead, search: projectSearch, listing: projectListing };

/** The kind by the corpus's own label (tool_detail), independent of the projectors' parsers. */
function kindOf(call: CorpusCall): Kind | undefined {
  const detail = call.tool_detail ?? "";
  const command = commandOf(call.args);
  if (["cat", "sed", "head", "tail", "nl"].includes(detail)) return /grep|<<|sed -i/.test(command) ? undefined : "read";
  if (detail === "str_replace_editor view" || detail === "open") return "read";
  if (detail === "grep") return "search";
  if (detail === "find" || detail === "ls") return "listing";
  return undefined;
}

function commandOf(args: unknown): string {
  if (typeof args === "string") return args;
  if (typeof args === "object" && args !== null && "command" in args && typeof args.command === "string") return args.command;
  return JSON.stringify(args);
}

// Evidence items as in shared/EVIDENCE.md: paths with an extension, identifiers (snake_case of 6+ characters,
// camelCase/CamelCase, *Error/*Exception/*Warning), numbers of 3+ digits, "line N", quoted strings of 6–200 characters.
const EXTENSIONS = "py|pyi|js|ts|tsx|jsx|json|md|rst|txt|cfg|ini|toml|yaml|yml|c|h|cc|cpp|hpp|go|rs|java|rb|sh|html|css|xml|csv|sql|pony";
const ITEM = new RegExp(
  String.raw`[\w./-]+\.(?:${EXTENSIONS})\b|\b[A-Za-z_]\w*(?:Error|Exception|Warning)\b|\b[a-z_][a-z0-9]*_[a-z0-9_]+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z0-9]+[A-Z]\w*\b|\bline \d+\b|\b\d{3,}\b|'[^'\n]{6,200}'|"[^"\n]{6,200}"`,
  "g",
);

function evidenceItems(call: CorpusCall): string[] {
  const found = new Set<string>();
  for (const match of call.next_action.matchAll(ITEM)) {
    const item = match[0]
      .replace(/^['"](.*)['"]$/s, "$1")
      .replace(/^\/testbed\//, "")
      .replace(/^\.\//, "");
    if (/^[a-z_][a-z0-9_]*$/.test(item) && item.length < 6) continue;
    found.add(item);
  }
  const items = [...found].filter((item, _, all) => !all.some((other) => other !== item && other.includes(item)));
  const seen = call.output_as_seen ?? call.output;
  const command = commandOf(call.args);
  return items.filter((item) => occurs(item, seen) && !call.task.includes(item) && !command.includes(item));
}

/** Whether an item shows in a text; "line N" also counts as a shown line-number prefix ("N:", "N-", "N<tab>"). */
function occurs(item: string, text: string): boolean {
  const line = /^line (\d+)$/.exec(item);
  if (line) return text.includes(item) || new RegExp(String.raw`(?:^|[\s:])${line[1] ?? ""}[:\-\t]`, "m").test(text);
  return text.includes(item);
}

/**
 * The view without Loupe's notice lines, except a file read's map of omitted
 * declarations and a listing's map of omitted entries: their labels are the
 * output's own text (a continuation's result id or a pattern from the intent
 * is not).
 */
function body(text: string): string {
  return text
    .split("\n")
    .filter((line) => !line.startsWith("[loupe") || line.startsWith(DECLARATION_MAP_OPENING) || line.startsWith(LISTING_MAP_OPENING))
    .join("\n");
}

interface Tally {
  outputs: number;
  items: number;
  projector: number;
  headTail: number;
}

function readCorpus(): CorpusCall[] {
  return FILES.filter((file) => existsSync(file)).flatMap((file) =>
    gunzipSync(readFileSync(file))
      .toString("utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as CorpusCall),
  );
}

function percent(tally: Tally, part: number): string {
  return tally.items === 0 ? "n/a" : `${((100 * part) / tally.items).toFixed(1)}%`;
}

describe("file-read, search and listing projectors on real agent outputs", () => {
  const present = FILES.some((file) => existsSync(file));

  it(
    "keep at least as much of the next action's evidence as a plain head/tail cut, pooled",
    { skip: present ? false : `corpus absent (${CORPUS_DIR}); it is not part of a clone` },
    () => {
      const tallies = new Map<string, Tally>();
      const add = (key: string, items: number, projector: number, headTail: number): void => {
        const tally = tallies.get(key) ?? { outputs: 0, items: 0, projector: 0, headTail: 0 };
        tallies.set(key, {
          outputs: tally.outputs + 1,
          items: tally.items + items,
          projector: tally.projector + projector,
          headTail: tally.headTail + headTail,
        });
      };
      for (const call of readCorpus()) {
        const kind = kindOf(call);
        if (kind === undefined || typeof call.output !== "string" || counter.within(call.output, 500) !== false) continue;
        const items = evidenceItems(call);
        const args = typeof call.args === "object" && call.args !== null ? (call.args as Record<string, unknown>) : {};
        const input = {
          text: call.output,
          lines: splitLines(call.output),
          toolName: call.tool,
          args,
          isError: false,
          exitCode: 0,
          timedOut: false,
          durationMs: undefined,
        };
        for (const budgetTokens of BUDGETS) {
          if (counter.within(call.output, budgetTokens) !== false) continue;
          const options = { budgetTokens, maxViewBytes: 50_000, counter, resultId: "r_0123456789abcdefghijABCDEFGHIJ_-", view: "" };
          const projected = body(PROJECTORS[kind](input, options).text);
          const headTail = body(projectHeadTail(call.output, options).text);
          const kept = items.filter((item) => occurs(item, projected)).length;
          const keptByHeadTail = items.filter((item) => occurs(item, headTail)).length;
          const keys = [
            `${kind} @${String(budgetTokens)}`,
            `${call.agent_system} @${String(budgetTokens)}`,
            ...(ASSERTED.has(budgetTokens) ? ["pooled (500 and 2,000)"] : []),
          ];
          for (const key of keys) add(key, items.length, kept, keptByHeadTail);
        }
      }
      for (const [key, tally] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
        console.log(
          `${key}: ${String(tally.outputs)} outputs, ${String(tally.items)} evidence items; kept by the projector ${String(tally.projector)} (${percent(tally, tally.projector)}), by projectHeadTail ${String(tally.headTail)} (${percent(tally, tally.headTail)})`,
        );
      }
      const pooled = tallies.get("pooled (500 and 2,000)");
      assert.ok(pooled !== undefined && pooled.items > 0, "the corpus holds evidence items for these outputs");
      assert.ok(
        pooled.projector >= pooled.headTail,
        `the projectors keep less evidence than head/tail (${String(pooled.projector)} < ${String(pooled.headTail)})`,
      );
    },
  );
});
