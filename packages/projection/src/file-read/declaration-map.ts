import { formatLine, formatNumber } from "../format-number.js";
import type { TokenCounter } from "../token-counter.js";
import { bucketsByLevel, spreadLevels } from "./choose-outline.js";
import { outlineLanguageOf, outlineLevel, withoutNumberPrefix } from "./outline-level.js";

/** One declaration of a file read: its output line (0-based), nesting level and short label. */
export interface Declaration {
  readonly index: number;
  readonly level: number;
  /** The declaration up to its parameters or body: "def iter_modules_and_files", "class BaseReloader", "## Usage" (made when first read). */
  readonly label: string;
}

// A label ends where the parameters, base classes, type parameters, value or body begin.
const LABEL_END = /[(:{=<[]/;
const MAX_LABEL = 60;

/** The label of a declaration line (see {@link Declaration.label}). */
export function declarationLabel(line: string, numbered: boolean): string {
  const content = (numbered ? withoutNumberPrefix(line) : line).trim();
  const heading = content.startsWith("#");
  const end = heading ? -1 : content.search(LABEL_END);
  const label = (end > 0 ? content.slice(0, end) : content).trimEnd();
  return label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label;
}

// Most declarations are never named in a map: a label is made when first read. One class, so every
// declaration shares one shape (property reads stay fast over thousands of them).
class LazyDeclaration implements Declaration {
  #label: string | undefined;
  constructor(
    readonly index: number,
    readonly level: number,
    private readonly line: string,
    private readonly numbered: boolean,
  ) {}
  get label(): string {
    return (this.#label ??= declarationLabel(this.line, this.numbered));
  }
}

/** Every declaration line (see outlineLevel) of `lines`, in line order. */
export function declarationsOf(lines: readonly string[], path: string, numbered: boolean): Declaration[] {
  const language = outlineLanguageOf(path);
  const found: Declaration[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const level = outlineLevel(line, numbered, language);
    if (level !== undefined) found.push(new LazyDeclaration(index, level, line, numbered));
  }
  return found;
}

/** How the map's line starts. */
export const DECLARATION_MAP_OPENING = "[loupe] omitted lines declare: ";
const CLOSING = "; recover a range as below";

/** How a map numbers its entries: the output's lines (what continuations take), or the file's own. */
export interface MapNumbering {
  /** The number shown for output line `index` (0-based). */
  lineOf(index: number): number;
  /** Said after the opening when the numbers are the file's, e.g. "(src/app.py lines)"; "" for output lines. */
  label: string;
}

/** Output line numbers: line `index` is `index + 1`. */
export const OUTPUT_LINES: MapNumbering = { lineOf: (index) => index + 1, label: "" };

/**
 * A one-line map of the declarations a view leaves out — "[loupe] omitted
 * lines declare: 111 def iter_modules_and_files, 264 class BaseReloader, 284
 * def watched_files; recover a range as below" — so the agent sees what the
 * omitted middle holds and which lines to ask for. Line numbers are the
 * output's (the ones continuations take), or with `numbering` the file's own
 * when a part of a file was read ("omitted lines declare: (src/app.py lines)
 * 1,004 def load, …"), as its numbered lines and the gap notices show them. When not every omitted declaration
 * fits `maxTokens`, the outermost come first, each level spread over the
 * file, and the map ends "… (N more)" — after the declarations in `first`
 * (those the intent points into, see declarationsByIntent), which are named
 * before any other. "" when nothing declared is omitted or not even one entry
 * fits.
 */
export function declarationMapNotice(
  declarations: readonly Declaration[],
  kept: Uint8Array,
  maxTokens: number,
  counter: TokenCounter,
  numbering: MapNumbering = OUTPUT_LINES,
  first: readonly Declaration[] = [],
): string {
  const omitted = declarations.filter((declaration) => kept[declaration.index] !== 1);
  if (omitted.length === 0) return "";
  const opening = numbering.label === "" ? DECLARATION_MAP_OPENING : `${DECLARATION_MAP_OPENING}${numbering.label} `;
  const entry = (declaration: Declaration): string => `${formatLine(numbering.lineOf(declaration.index))} ${declaration.label}`;
  const fixed = counter.count(`${opening}${CLOSING} … (${formatNumber(omitted.length)} more)`);
  let room = maxTokens - fixed;
  const chosen: Declaration[] = [];
  // Lazily: a map names a few dozen of what may be thousands of declarations.
  for (const declaration of namingOrder(omitted, kept, first)) {
    // ", " between entries costs about one token.
    const cost = counter.count(entry(declaration)) + 1;
    if (cost > room) break;
    room -= cost;
    chosen.push(declaration);
  }
  // Per-entry counts can differ a little from the joined line's: drop the last taken until the line fits
  // (an entry and its separator cost at least two tokens: dropping a quarter of the excess in entries never drops too many).
  while (chosen.length > 0) {
    const notice = render(chosen, omitted.length, opening, entry);
    if (counter.within(notice, maxTokens) !== false) return notice;
    chosen.length -= Math.min(chosen.length, Math.max(1, Math.floor((counter.count(notice) - maxTokens) / 4)));
  }
  return "";
}

/** The declarations a map names when not all fit, in turn: `first` (those omitted), then the rest outermost first, spread. */
function* namingOrder(omitted: readonly Declaration[], kept: Uint8Array, first: readonly Declaration[]): Generator<Declaration> {
  for (const declaration of first) if (kept[declaration.index] !== 1) yield declaration;
  const named = new Set(first);
  for (const declaration of spreadLevels(bucketsByLevel(omitted))) if (!named.has(declaration)) yield declaration;
}

function render(chosen: readonly Declaration[], omitted: number, opening: string, entry: (declaration: Declaration) => string): string {
  const entries = [...chosen].sort((a, b) => a.index - b.index).map(entry);
  const more = omitted - chosen.length;
  return `${opening}${entries.join(", ")}${more > 0 ? ` … (${formatNumber(more)} more)` : ""}${CLOSING}`;
}
