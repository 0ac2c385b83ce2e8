/** The longest piece an {@link AsciiPieces} table holds. */
export const ASCII_PIECE_MAX_CHARS = 8;

// 2^18 slots of two 32-bit keys (2 MiB) for o200k's 111,000 pieces of 1–8 ASCII characters: under half full.
const SLOT_BITS = 18;
const NOT_ASCII = -1;

/**
 * The vocabulary's pieces of 1–8 ASCII characters, for asking whether a piece of a text is one of them
 * without cutting it out as a string of its own: its characters are packed into two numbers (seven bits
 * each, four to a number, with the length) and looked up in an open-addressing table of typed arrays.
 * Nine in ten pieces of tool output are such pieces; a lookup reads a few cache lines of a 2 MiB array
 * where a lookup in the vocabulary's map of 200,000 strings hashes a new string and follows pointers
 * through a far larger heap (docs/benchmarks.md, "Vocabulary lookups without strings").
 */
export interface AsciiPieces {
  /**
   * Whether `text.slice(start, end)` is a piece of the vocabulary: IN_VOCABULARY, NOT_IN_VOCABULARY, or
   * UNKNOWN when the table cannot tell (longer than ASCII_PIECE_MAX_CHARS, or not ASCII).
   */
  lookup(text: string, start: number, end: number): PieceLookup;
}

export const IN_VOCABULARY = 1;
export const NOT_IN_VOCABULARY = 0;
export const UNKNOWN = -1;
/** What {@link AsciiPieces.lookup} answers. */
export type PieceLookup = typeof IN_VOCABULARY | typeof NOT_IN_VOCABULARY | typeof UNKNOWN;

// Characters start…end (at most four) packed seven bits each; NOT_ASCII when one is outside ASCII.
function pack(text: string, start: number, end: number): number {
  let key = 0;
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code > 127) return NOT_ASCII;
    key = (key << 7) | code;
  }
  return key;
}

// The first number: the first four characters and the length less one (three bits); the second: the rest,
// plus one, so that 0 marks an empty slot.
const slotOf = (first: number, second: number): number => Math.imul(first ^ Math.imul(second, 0x85ebca6b), 0x9e3779b1) >>> (32 - SLOT_BITS);

// The two numbers of text.slice(start, end) (see slotOf), or false when the table cannot hold it (empty,
// longer than ASCII_PIECE_MAX_CHARS, or not ASCII). Written to `keys` so that a lookup allocates nothing.
function keysOf(text: string, start: number, end: number, keys: Int32Array): boolean {
  const length = end - start;
  if (length < 1 || length > ASCII_PIECE_MAX_CHARS) return false;
  const split = Math.min(end, start + 4);
  const head = pack(text, start, split);
  const tail = head === NOT_ASCII ? NOT_ASCII : pack(text, split, end);
  if (tail === NOT_ASCII) return false;
  keys[0] = (head << 3) | (length - 1);
  keys[1] = tail + 1;
  return true;
}

/** The table of `vocabulary`'s pieces of 1–8 ASCII characters (its keys as the library's map holds them). */
export function asciiPieces(vocabulary: Iterable<string>): AsciiPieces {
  const slots = new Int32Array(2 << SLOT_BITS);
  const mask = (1 << SLOT_BITS) - 1;
  const keys = new Int32Array(2);
  for (const piece of vocabulary) {
    if (!keysOf(piece, 0, piece.length, keys)) continue;
    const [first = 0, second = 0] = keys;
    let slot = slotOf(first, second);
    while (slots[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    slots[2 * slot] = first;
    slots[2 * slot + 1] = second;
  }
  return {
    lookup: (text, start, end) => {
      if (!keysOf(text, start, end, keys)) return UNKNOWN;
      const first = keys[0] ?? 0;
      const second = keys[1] ?? 0;
      for (let slot = slotOf(first, second); ; slot = (slot + 1) & mask) {
        const found = slots[2 * slot + 1];
        if (found === 0) return NOT_IN_VOCABULARY;
        if (found === second && slots[2 * slot] === first) return IN_VOCABULARY;
      }
    },
  };
}
