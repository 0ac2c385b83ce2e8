import type { ProjectorContext } from "../projectors/projector.js";
import { utf8Length } from "../utf8-length.js";
import { compactJsonWithin } from "./compact-json-within.js";
import { createCostModel } from "./cost-model.js";
import { selectStructure } from "./select-structure.js";
import type { StructuredView } from "./structured-omission.js";
import { renderTree, type RenderedTree } from "./view-tree.js";

/** Options for {@link projectStructured}. */
export interface StructuredOptions {
  /**
   * `full` (default): shape, identities and representative items first, then
   * more items and long strings as the budget allows. `index`: only the
   * bounded index (shape, identity fields, first/last/failed items; long
   * strings stay markers), for a result whose text parts already carry the
   * readable content.
   */
  mode?: "full" | "index";
}

const FULL_TIER = Number.POSITIVE_INFINITY;
const INDEX_TIER = 2;
const MAX_ATTEMPTS = 6;
// The most one attempt scales the estimate by.
const MAX_GROWTH = 4;
// A selection using less than this share of the budget is tried again with a larger estimate.
const GROW_BELOW = 0.95;

/** A JSON view and how many characters of leaves it shows verbatim (to compare with other renderings). */
export interface ScoredStructuredView {
  view: StructuredView;
  verbatimChars: number;
  /** Characters of strings the view replaced whole by markers (a JSON view cannot show part of a string). */
  omittedStringChars: number;
}

/**
 * Projects a parsed JSON value into a first view that is itself valid JSON:
 * members in their original order (as `Object.keys` gives them), omitted
 * parts replaced by "$loupe" marker objects that name the JSON pointer (and
 * item range) Recover serves them from. A value whose compact JSON fits the
 * budget and byte cap comes back whole (`unchanged`). Pure and deterministic.
 *
 * Marker objects (see structured-omission.ts) are the only objects in a cut
 * view with a "$loupe" member: a data object that has one is itself shown as
 * a marker. Budgets below ~40 tokens cannot hold even the root marker; the
 * root marker is returned anyway.
 */
export function projectStructured(json: unknown, context: ProjectorContext, options: StructuredOptions = {}): StructuredView {
  return projectStructuredScored(json, context, options).view;
}

/** {@link projectStructured}, also returning how much of the value it shows verbatim. */
export function projectStructuredScored(json: unknown, context: ProjectorContext, options: StructuredOptions = {}): ScoredStructuredView {
  const { counter, maxViewBytes, resultId } = context;
  const whole = compactJsonWithin(json, maxViewBytes);
  if (whole !== undefined && counter.within(whole, context.budgetTokens) !== false) {
    return { view: { text: whole, omissions: [], unchanged: true }, verbatimChars: whole.length, omittedStringChars: 0 };
  }
  const maxTier = options.mode === "index" ? INDEX_TIER : FULL_TIER;
  const model = createCostModel(counter, resultId);
  const select = (budgetTokens: number): RenderedTree =>
    renderTree(selectStructure(json, { budgetTokens, maxViewBytes, counter, resultId, maxTier, model }), resultId);
  // The estimate (a sum of fragment counts) overshoots, by as much as twice: a view that fits but leaves room is
  // selected again with a larger estimate (scaled by what it left), and once one overshoots, between the two.
  let estimate = context.budgetTokens;
  let fitting: { rendered: RenderedTree; estimate: number } | undefined;
  let over: number | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && estimate > 0; attempt++) {
    const rendered = select(estimate);
    const tokens = utf8Length(rendered.text) <= maxViewBytes ? counter.within(rendered.text, context.budgetTokens) : false;
    if (tokens !== false) {
      fitting = rendered.text.length >= (fitting?.rendered.text.length ?? 0) ? { rendered, estimate } : fitting;
      if (tokens >= context.budgetTokens * GROW_BELOW) break;
      const grown = Math.ceil(estimate * Math.min(MAX_GROWTH, context.budgetTokens / Math.max(1, tokens)));
      estimate = over === undefined ? grown : Math.floor((estimate + over) / 2);
    } else if (fitting !== undefined) {
      over = estimate;
      estimate = Math.floor((fitting.estimate + over) / 2);
    } else {
      // The estimate was short: select again with less room.
      const excess = counter.count(rendered.text) - context.budgetTokens;
      estimate -= Math.max(excess, 1) + Math.ceil(estimate * 0.02);
    }
    // Between two estimates a step apart there is nothing left to try.
    if (fitting !== undefined && over !== undefined && over - fitting.estimate <= 1) break;
  }
  return scored(fitting?.rendered ?? select(0));
}

function scored(rendered: RenderedTree): ScoredStructuredView {
  return {
    view: { text: rendered.text, omissions: rendered.omissions, unchanged: false },
    verbatimChars: rendered.verbatimChars,
    omittedStringChars: rendered.omittedStringChars,
  };
}

/**
 * The share of a result's budget its JSON index gets when the result also
 * has readable text parts: a quarter, at least 150 tokens, never more than
 * the budget.
 */
export function structuredIndexBudget(budgetTokens: number): number {
  return Math.min(budgetTokens, Math.max(150, Math.floor(budgetTokens / 4)));
}
