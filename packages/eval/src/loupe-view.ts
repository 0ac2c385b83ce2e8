// A Loupe notice line: a first view's ("[loupe] lines 5–9 omitted; recover …", "[loupe] $ make · exit 2") or the
// history cut's ("[loupe: 1,200 lines cut …").
const NOTICE = /^\[loupe(?:\] |: )/m;

/**
 * Whether a recorded output is already Loupe's work — a first view or a history cut, known by a notice line of
 * Loupe's — as in a session recorded with its hooks or proxy in place.
 */
export function isLoupeView(output: string): boolean {
  return NOTICE.test(output);
}
