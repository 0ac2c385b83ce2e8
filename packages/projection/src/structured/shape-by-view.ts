import { applyFieldView } from "./apply-field-view.js";
import { selectView, type SelectedView } from "./select-view-spec.js";
import { jsonContinuation, type StructuredOmission } from "./structured-omission.js";
import type { ViewSpec } from "./view-spec.js";

/** Where field views come from, in order of precedence, and which one a request names. */
export interface ViewChoice {
  /** The app the result comes from. */
  source?: string;
  /** The view the request names ("" or undefined = the matching spec's default). */
  view?: string;
  /** Views from Loupe's configuration (LOUPE_VIEW_SPECS_FILE): they come first. */
  viewSpecs?: readonly ViewSpec[];
  /** Views from the source's rule (its view_specs_json): used where the configuration has none for the tool. */
  ruleViewSpecs?: readonly ViewSpec[];
  /** The saved result's id ("" when nothing was saved). */
  resultId: string;
}

/** A JSON value shaped by the field view chosen for it, and the omission naming what the view left out. */
export interface Shaped {
  value: unknown;
  selected?: SelectedView;
  /** Set when the view left fields out: names them, with the continuation to the whole value. */
  omission?: StructuredOmission;
  /** The field paths the view left out (set with `omission`). */
  dropped?: string[];
}

const NAMED_DROPS = 12;

/**
 * Shapes a tool's JSON answer by the field view its source, tool and request select (see
 * selectView: configuration first, then the rule); the value unchanged when no spec matches.
 * @throws AppError invalid_argument when specs match the tool but none has the requested view
 */
export function shapeByView(value: unknown, toolName: string, choice: ViewChoice): Shaped {
  const selected = selectView([choice.viewSpecs, choice.ruleViewSpecs], { source: choice.source ?? "", toolName, view: choice.view ?? "" });
  if (selected === undefined) return { value };
  const shaped = applyFieldView(value, selected.view);
  if (shaped.dropped.length === 0) return { value: shaped.value, selected };
  const dropped = shaped.dropped.slice(0, NAMED_DROPS).join(", ") + (shaped.dropped.length > NAMED_DROPS ? ", …" : "");
  const continuation = jsonContinuation(choice.resultId, "");
  const others = Object.keys(selected.spec.views).filter((name) => name !== selected.name);
  const other = others[0];
  const switchTo =
    other === undefined || choice.resultId === ""
      ? ""
      : `; other views: ${others.join(", ")} (e.g. ${JSON.stringify({ result_id: choice.resultId, view: other })})`;
  const description = `[loupe] view "${selected.name}" left out ${dropped}${switchTo}; the whole result: ${continuation || "not saved"}`;
  return { value: shaped.value, selected, dropped: shaped.dropped, omission: { description, continuationJson: continuation, jsonPointer: "" } };
}
