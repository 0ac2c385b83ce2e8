import type { LoupeClient } from "@loupe/client";
import { jsonStrings } from "@loupe/conversation";
import type { TokenCounter } from "@loupe/projection";
import type { Trajectory } from "./corpus-row.js";
import type { EvidenceKind } from "./extract-evidence.js";
import { carriedEvidence, type CarriedItem } from "./note-evidence.js";
import { citedSeqs, type TurnReader } from "./note-context.js";
import { resultSeq } from "./note-turns.js";

/** Where an item used after a compaction was found. */
export type Carried = "note" | "kept" | "address" | "search" | "lost";

/** One compaction and how well it handed over what came next. */
export interface CompactionScore {
  readonly trajectoryId: string;
  readonly agentSystem: string;
  /** The compaction came after this row's output (0-based). */
  readonly afterRow: number;
  readonly path: "prepared" | "fallback";
  readonly watermarkSeq: number;
  readonly noteTokens: number;
  /** Tokens of the whole compacted context, as Loupe counted them. */
  readonly contextTokens: number;
  /** Tokens of the turns the note stands for (o200k, counted here). */
  readonly coveredTokens: number;
  /** Distinct `turn:` addresses the note cites. */
  readonly citedAddresses: number;
  /** Over the items found by address: the cited turns read, most recent first, until each was found. */
  readonly addressReads: number;
  /** Items used after the compaction that occurred only before it. */
  readonly items: number;
  readonly found: Readonly<Record<Carried, number>>;
  /** The same, per kind of item (paths and file:lines, identifiers, error names, quoted strings). */
  readonly foundByKind: Readonly<Partial<Record<EvidenceKind, Readonly<Record<Carried, number>>>>>;
  /** Items in the most recent turns that fit the same tokens, with no note: what plain truncation keeps. */
  readonly recentTurns: number;
  /** Up to five lost items, for reading. */
  readonly lostSample: readonly string[];
  /** Up to five items the compacted context did not hold (found by address or search), for reading. */
  readonly outsideSample: readonly string[];
}

/** Zero of every place. */
export const emptyFound = (): Record<Carried, number> => ({ note: 0, kept: 0, address: 0, search: 0, lost: 0 });

/** What {@link scoreCompaction} needs to know about one compaction. */
export interface CompactionInput {
  readonly trajectory: Trajectory;
  readonly sessionId: string;
  readonly afterRow: number;
  /** The first row whose next action comes after the next compaction (or the row count). */
  readonly untilRow: number;
  /** Every turn of the trajectory with its text and tokens (o200k), counted once per trajectory. */
  readonly turns: ReadonlyArray<{ readonly seq: number; readonly text: string; readonly tokens: number }>;
  /** Reads cited turns through ReadHistory, each once per session. */
  readonly reader: TurnReader;
  readonly counter: TokenCounter;
  readonly path: "prepared" | "fallback";
  readonly noteText: string;
  readonly watermarkSeq: number;
  /** messages_json of the Compact answer. */
  readonly contextJson: string;
  readonly contextTokens: number;
}

/**
 * Scores one compaction: every item the actions after it use from before it
 * (see `carriedEvidence`) is looked for in the note, then in the turns the
 * compacted context kept, then in the turns the note cites by address (read
 * whole through ReadHistory), then by one SearchHistory of the item over the
 * turns before the compaction; an item none of them finds is lost. Also
 * counts what keeping only the most recent turns of the same size would hold.
 */
export async function scoreCompaction(client: LoupeClient, input: CompactionInput): Promise<CompactionScore> {
  const items = carriedEvidence(input.trajectory, input.afterRow, input.untilRow);
  const context = jsonStrings(JSON.parse(input.contextJson)).join("\n");
  // An agent reading the cited turns starts from the most recent.
  const cited = citedSeqs(input.noteText).reverse();
  const lastSeq = resultSeq(input.afterRow);
  const found = emptyFound();
  const foundByKind: Partial<Record<EvidenceKind, Record<Carried, number>>> = {};
  const lostSample: string[] = [];
  const outsideSample: string[] = [];
  let addressReads = 0;
  for (const item of items) {
    const { where, reads } = await locate(client, input, item, { context, cited, reader: input.reader, lastSeq });
    found[where] += 1;
    addressReads += reads;
    (foundByKind[item.kind] ??= emptyFound())[where] += 1;
    if (where === "lost" && lostSample.length < 5) lostSample.push(item.text);
    if ((where === "address" || where === "search") && outsideSample.length < 5) outsideSample.push(`${item.kind}:${item.text}`);
  }
  const turns = input.turns.filter((turn) => turn.seq <= lastSeq);
  const coveredTokens = turns.reduce((total, turn) => total + (turn.seq <= input.watermarkSeq ? turn.tokens : 0), 0);
  const recent: string[] = [];
  for (let index = turns.length - 1, used = 0; index >= 0; index--) {
    used += turns[index]?.tokens ?? 0;
    if (used > input.contextTokens) break;
    recent.push(turns[index]?.text ?? "");
  }
  return {
    trajectoryId: input.trajectory.id,
    agentSystem: input.trajectory.agentSystem,
    afterRow: input.afterRow,
    path: input.path,
    watermarkSeq: input.watermarkSeq,
    noteTokens: input.noteText === "" ? 0 : input.counter.count(input.noteText),
    contextTokens: input.contextTokens,
    coveredTokens,
    citedAddresses: cited.length,
    addressReads,
    items: items.length,
    found,
    foundByKind,
    recentTurns: items.filter((item) => recent.some((text) => text.includes(item.text))).length,
    lostSample,
    outsideSample,
  };
}

async function locate(
  client: LoupeClient,
  input: CompactionInput,
  item: CarriedItem,
  where: { context: string; cited: readonly number[]; reader: TurnReader; lastSeq: number },
): Promise<{ where: Carried; reads: number }> {
  if (input.noteText.includes(item.text)) return { where: "note", reads: 0 };
  if (where.context.includes(item.text)) return { where: "kept", reads: 0 };
  for (const [index, seq] of where.cited.entries()) if ((await where.reader.read(seq)).includes(item.text)) return { where: "address", reads: index + 1 };
  const search = await client.searchHistory({ sessionId: input.sessionId, query: item.text, limit: 50 });
  // A hit on every word of a phrase is not the phrase: a snippet without it is checked against the turn.
  for (const hit of search.hits) {
    if (hit.seq > where.lastSeq) continue;
    if (hit.snippet.includes(item.text) || (await where.reader.read(hit.seq)).includes(item.text)) return { where: "search", reads: 0 };
  }
  return { where: "lost", reads: 0 };
}
