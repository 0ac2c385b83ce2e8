/**
 * What the history cut does to one image (by its content hash): its first `refs` occurrences
 * become a reference to a later identical one, the next `thumbs` become a thumbnail, the rest
 * stay as they are.
 */
export interface ImageDecision {
  refs: number;
  thumbs: number;
}

/** The decisions of a conversation, by image hash. */
export type ImageDecisions = Record<string, ImageDecision>;

/** What happens to one image of a history. */
export type ImageAction = "keep" | "reference" | "thumbnail";

/** The per-app settings the plan follows. */
export interface ImageCutRule {
  /** Keep the last this many shown images whole; 0 = no thumbnails. */
  keepLast: number;
  /** Replace an image identical to a later one by a reference. */
  dedupe: boolean;
}

/**
 * Plans the image cuts of a history from its images' hashes, oldest first: with `dedupe`, every
 * occurrence of an image but its last becomes a reference; of the images then shown, all but the
 * last `keepLast` become thumbnails (none when `keepLast` is 0). Pure.
 */
export function planImageCuts(hashes: readonly string[], rule: ImageCutRule): ImageDecisions {
  const lastIndex = new Map<string, number>();
  hashes.forEach((hash, index) => lastIndex.set(hash, index));
  const shown = hashes.map((hash, index) => !rule.dedupe || lastIndex.get(hash) === index);
  const shownCount = shown.filter(Boolean).length;
  const thumbnailed = rule.keepLast === 0 ? 0 : Math.max(0, shownCount - rule.keepLast);
  const decisions: ImageDecisions = {};
  let shownSoFar = 0;
  hashes.forEach((hash, index) => {
    const decision = (decisions[hash] ??= { refs: 0, thumbs: 0 });
    if (!shown[index]) decision.refs++;
    else if (shownSoFar++ < thumbnailed) decision.thumbs++;
  });
  for (const [hash, decision] of Object.entries(decisions)) if (decision.refs === 0 && decision.thumbs === 0) delete decisions[hash];
  return decisions;
}

/**
 * The action for each image of a history under `decisions`: occurrences of a hash are counted in
 * order, so a history that grew since the decisions were made keeps its earlier images' actions and
 * leaves the new ones as they are. Pure.
 */
export function imageActions(hashes: readonly string[], decisions: ImageDecisions): ImageAction[] {
  const seen = new Map<string, number>();
  return hashes.map((hash) => {
    const occurrence = seen.get(hash) ?? 0;
    seen.set(hash, occurrence + 1);
    const decision = decisions[hash];
    if (decision === undefined) return "keep";
    if (occurrence < decision.refs) return "reference";
    return occurrence < decision.refs + decision.thumbs ? "thumbnail" : "keep";
  });
}
