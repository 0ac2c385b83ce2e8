import { turnKey, type ArchiveStore } from "@loupe/archive-store";
import { AppError } from "@loupe/errors";
import { listTurnSeqs } from "./read-turns.js";

/** One turn that matched. */
export interface TurnHitOutcome {
  seq: number;
  snippet: string;
}

/** Longest query accepted, in characters. */
export const MAX_QUERY_CHARS = 1000;
const MAX_SNIPPET_CHARS = 400;
const READ_CONCURRENCY = 16;
const decoder = new TextDecoder();
// Labels and encoded media, not text anyone searches for.
const UNSEARCHED_FIELDS = new Set(["type", "role", "data", "mimeType"]);

/**
 * Finds turns whose text (message text, tool arguments, tool results) holds `query`, case-insensitively:
 * first as a phrase; when no turn holds the phrase, turns holding every word of it. Hits come in seq order,
 * each with its first matching line (whole, up to 400 characters).
 * @throws AppError `invalid_argument` for an empty or over-long query
 */
export async function searchTurns(
  store: ArchiveStore,
  tenant: string,
  request: { sessionId: string; query: string; limit: number },
  signal?: AbortSignal,
): Promise<{ hits: TurnHitOutcome[]; matchCount: number }> {
  const query = request.query.trim().toLowerCase();
  if (query === "") throw new AppError("invalid_argument", "query is required");
  if (query.length > MAX_QUERY_CHARS) throw new AppError("invalid_argument", `query too long [max_chars=${String(MAX_QUERY_CHARS)}]`);
  const limit = request.limit === 0 ? 20 : Math.min(request.limit, 200);
  const seqs = await listTurnSeqs(store, tenant, request.sessionId, signal);
  const texts: Array<{ seq: number; lines: string[] }> = [];
  for (let offset = 0; offset < seqs.length; offset += READ_CONCURRENCY) {
    const window = seqs.slice(offset, offset + READ_CONCURRENCY);
    const bodies = await Promise.all(window.map((seq) => store.get(turnKey(tenant, request.sessionId, seq), signal ? { signal } : {})));
    bodies.forEach((body, index) => texts.push({ seq: window[index] ?? 0, lines: turnLines(decoder.decode(body)) }));
  }
  const phrase = match(texts, (line) => line.toLowerCase().includes(query));
  const words = query.split(/\s+/);
  const found = phrase.length > 0 || words.length === 1 ? phrase : matchAllWords(texts, words);
  return { hits: found.slice(0, limit), matchCount: found.length };
}

function match(texts: Array<{ seq: number; lines: string[] }>, test: (line: string) => boolean): TurnHitOutcome[] {
  const hits: TurnHitOutcome[] = [];
  for (const { seq, lines } of texts) {
    const line = lines.find(test);
    if (line !== undefined) hits.push({ seq, snippet: snippet(line) });
  }
  return hits;
}

function matchAllWords(texts: Array<{ seq: number; lines: string[] }>, words: string[]): TurnHitOutcome[] {
  const holding = texts.filter(({ lines }) => {
    const whole = lines.join("\n").toLowerCase();
    return words.every((word) => whole.includes(word));
  });
  return match(holding, (line) => words.some((word) => line.toLowerCase().includes(word)));
}

function snippet(line: string): string {
  const trimmed = line.trim();
  return trimmed.length <= MAX_SNIPPET_CHARS ? trimmed : `${trimmed.slice(0, MAX_SNIPPET_CHARS)}…`;
}

/** Every line of every string in a turn's JSON (texts, arguments, results), in document order. */
export function turnLines(json: string): string[] {
  const lines: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === "string") lines.push(...value.split(/\r?\n/).filter((line) => line.trim() !== ""));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) {
      for (const [key, field] of Object.entries(value)) if (!UNSEARCHED_FIELDS.has(key)) visit(field);
    }
  };
  try {
    visit(JSON.parse(json));
  } catch {
    lines.push(...json.split(/\r?\n/));
  }
  return lines;
}
