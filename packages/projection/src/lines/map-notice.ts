import type { TokenCounter } from "../token-counter.js";
import type { LineViewOptions } from "./build-line-view.js";

/**
 * A view's selection notice when a projector adds a map line (a file read's omitted declarations, a
 * listing's omitted entries) under the intent's notice: both lines, the intent's first, each only when
 * it says something; and the room to keep for them from the first selection on — the map's reserve and,
 * with a map, the intent's line as if all its matches were left out, so the selection is not made twice
 * for want of a few tokens. Without a map (`mapReserve` 0) the intent's notice alone, with no room kept.
 */
export function withMapNotice(
  intentNotice: ((kept: Uint8Array) => string) | undefined,
  mapNotice: (kept: Uint8Array) => string,
  mapReserve: number,
  lineCount: number,
  counter: TokenCounter,
): Pick<LineViewOptions, "selectionNotice" | "selectionNoticeTokens"> {
  if (mapReserve <= 0) return intentNotice ? { selectionNotice: intentNotice } : {};
  const intentReserve = intentNotice ? counter.count(intentNotice(new Uint8Array(lineCount))) + 2 : 0;
  return {
    selectionNotice: (kept) => [intentNotice?.(kept) ?? "", mapNotice(kept)].filter((line) => line !== "").join("\n"),
    selectionNoticeTokens: mapReserve + intentReserve,
  };
}
