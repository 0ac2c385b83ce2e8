import { decode, encode } from "gpt-tokenizer/encoding/o200k_base";
import type { Policy } from "./policy.js";

const MARKER = "\n…\n";
// The marker's tokens come out of the blind cut's own size.
const MARKER_TOKENS = encode(MARKER).length;

/**
 * The first `tokens / 2` and the last `tokens / 2` o200k tokens of `text`
 * (less the marker's), joined by a "…" line: a cut with no parsing at all.
 * Text of at most `tokens` tokens comes back as it is.
 */
export function blindCut(text: string, tokens: number): string {
  const encoded = encode(text, { disallowedSpecial: new Set() });
  if (encoded.length <= tokens) return text;
  const room = Math.max(0, tokens - MARKER_TOKENS);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return `${decode(encoded.slice(0, head))}${MARKER}${decode(encoded.slice(encoded.length - tail))}`;
}

/**
 * The first `tokens` o200k tokens of `text` (less the marker's), then a "…" line: the one
 * contiguous run of its start. Text of at most `tokens` tokens comes back as it is.
 */
export function headCut(text: string, tokens: number): string {
  const encoded = encode(text, { disallowedSpecial: new Set() });
  if (encoded.length <= tokens) return text;
  return `${decode(encoded.slice(0, Math.max(0, tokens - MARKER_TOKENS)))}${MARKER}`;
}

/** Per output, `cut` to as many tokens as the reference's first view of it used; whole where the reference kept it whole. */
function sizedCutPolicy(prefix: string, cut: (text: string, tokens: number) => string, reference: Policy, count: (text: string) => number): Policy {
  return {
    name: `${prefix}:${reference.name}`,
    view: async (row, session, context) => {
      const view = await reference.view(row, session, context);
      if (view.firstView === row.output) return { firstView: row.output, saved: false };
      return { firstView: cut(row.output, count(view.firstView)), saved: false };
    },
  };
}

/**
 * `blind` beside a reference policy (a Loupe view): per output, the first and
 * last halves of as many tokens as the reference's first view of that output
 * used — the same size, no parsing. An output the reference kept whole stays
 * whole. Nothing is saved. Named `blind:<reference name>`.
 */
export function createBlindPolicy(reference: Policy, count: (text: string) => number): Policy {
  return sizedCutPolicy("blind", blindCut, reference, count);
}

/**
 * `head` beside a reference policy: per output, the first as many tokens as the reference's first
 * view of it used — what a runtime shows when it can number only one contiguous run of a read's
 * lines from its start (the hook's answer for Claude Code's Read before its view went beside the
 * lines). An output the reference kept whole stays whole. Named `head:<reference name>`.
 */
export function createHeadPolicy(reference: Policy, count: (text: string) => number): Policy {
  return sizedCutPolicy("head", headCut, reference, count);
}
