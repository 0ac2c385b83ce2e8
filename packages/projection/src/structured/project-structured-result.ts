import type { ProjectorContext } from "../projectors/projector.js";
import { projectStructured, projectStructuredScored } from "./project-structured.js";
import { renderStructuredAsTextScored } from "./render-structured-as-text.js";
import type { StructuredView } from "./structured-omission.js";

/** A structured view and the form it took. */
export interface ChosenStructuredView extends StructuredView {
  /** `json`: valid JSON with "$loupe" markers; `text`: readable sections with "[loupe" notice lines. */
  format: "json" | "text";
}

/** Options for {@link projectStructuredResult}. */
export interface StructuredResultOptions {
  /** The result also has readable text parts: the JSON becomes only its bounded index. */
  hasText: boolean;
}

/**
 * The first view of a result's JSON part. With readable text beside it
 * (`hasText`), only the bounded JSON index (mode `index`): the caller gives
 * it a small share of the budget (structuredIndexBudget) and the rest to the
 * text. A structured-only result gets whichever of the two views fits
 * better. The JSON view is the default (faithful structure, identities of
 * many items); it can only keep or omit a string whole, so the readable text
 * rendering (which keeps the head of a long string) is chosen when both
 *   - the strings the JSON view had to omit whole are longer than all it
 *     shows verbatim, and
 *   - the text view's kept lines show more characters of the value than the
 *     JSON view does.
 * A value that fits whole comes back whole. Pure and deterministic.
 */
export function projectStructuredResult(json: unknown, context: ProjectorContext, options: StructuredResultOptions): ChosenStructuredView {
  if (options.hasText) return { ...projectStructured(json, context, { mode: "index" }), format: "json" };
  const asJson = projectStructuredScored(json, context, { mode: "full" });
  if (asJson.view.unchanged || asJson.omittedStringChars <= asJson.verbatimChars) return { ...asJson.view, format: "json" };
  const asText = renderStructuredAsTextScored(json, context);
  if (asText.verbatimChars > asJson.verbatimChars) return { ...asText.view, format: "text" };
  return { ...asJson.view, format: "json" };
}
