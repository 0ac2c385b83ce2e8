/**
 * A source's (app's) rule for the History cut. All counts are Unicode code
 * points ("characters"), not UTF-16 units or bytes.
 */
export interface CutRule {
  /** Texts longer than this are cut; 0 turns the cut off. */
  keepLimitChars: number;
  /** Characters kept from the start. */
  keepHeadChars: number;
  /** Characters kept from the end. */
  keepTailChars: number;
  /** Tool names whose results may be cut, matched whole and case-insensitively. */
  keepTools: readonly string[];
}

/** The outcome of `cutHeadTail`. */
export interface CutResult {
  text: string;
  cut: boolean;
  /** Code points removed (0 when not cut). */
  removedChars: number;
}
