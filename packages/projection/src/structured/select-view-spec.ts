import { AppError } from "@loupe/errors";
import type { FieldView, ViewSpec } from "./view-spec.js";

/** What a request names: its source (app), the tool, and the view asked for ("" = the spec's default). */
export interface ViewRequest {
  source: string;
  toolName: string;
  view: string;
}

/** The view chosen for a request. */
export interface SelectedView {
  spec: ViewSpec;
  /** The view's name in the spec. */
  name: string;
  view: FieldView;
}

/** A tool glob (`*`, `?`) as a case-insensitive whole-name pattern. */
export function globPattern(glob: string): RegExp {
  const body = [...glob].map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.+^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, "is");
}

function hasView(spec: ViewSpec, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(spec.views, name);
}

/** The view a spec serves when a request names none: its `default`, else `concise`, else its first. */
export function defaultView(spec: ViewSpec): string {
  if (spec.default !== undefined) return spec.default;
  return hasView(spec, "concise") ? "concise" : (Object.keys(spec.views)[0] ?? "");
}

// More specific first: a spec for the source, then an exact tool name, then more literal characters.
function specificity(spec: ViewSpec): number[] {
  const literal = spec.tool.replace(/[*?]/g, "").length;
  return [spec.source === undefined ? 0 : 1, /[*?]/.test(spec.tool) ? 0 : 1, literal];
}

function compare(a: number[], b: number[]): number {
  for (let index = 0; index < a.length; index++) {
    const difference = (b[index] ?? 0) - (a[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

function matchingSpecs(specs: readonly ViewSpec[], request: ViewRequest): ViewSpec[] {
  return specs
    .map((spec, order) => ({ spec, order }))
    .filter(
      ({ spec }) => globPattern(spec.tool).test(request.toolName) && (spec.source === undefined || spec.source.toLowerCase() === request.source.toLowerCase()),
    )
    .sort((a, b) => compare(specificity(a.spec), specificity(b.spec)) || a.order - b.order)
    .map(({ spec }) => spec);
}

/**
 * Chooses the field view for a request from layers of specs, the first layer first (Loupe's
 * configuration, then the source's rule): within a layer, among the specs whose tool glob matches
 * the tool name (case-insensitive) and whose source, when set, equals the request's
 * (case-insensitive), the most specific (source-bound over any-source, exact tool over glob, more
 * literal characters, then the earlier spec). A named view comes from the first layer with a
 * matching spec that has it; with no view named, the first matching layer's most specific spec
 * gives its default view. Undefined when no spec in any layer matches the tool.
 *
 * @throws AppError invalid_argument when specs match the tool but none has the requested view (naming the views there are)
 */
export function selectView(layers: readonly (readonly ViewSpec[] | undefined)[], request: ViewRequest): SelectedView | undefined {
  const matching = layers.map((specs) => (specs === undefined ? [] : matchingSpecs(specs, request))).filter((specs) => specs.length > 0);
  const best = matching[0]?.[0];
  if (best === undefined) return undefined;
  if (request.view === "") {
    const name = defaultView(best);
    const view = best.views[name];
    return view === undefined ? undefined : { spec: best, name, view };
  }
  for (const specs of matching) {
    const spec = specs.find((candidate) => hasView(candidate, request.view));
    const view = spec?.views[request.view];
    if (spec !== undefined && view !== undefined) return { spec, name: request.view, view };
  }
  const known = [...new Set(matching.flat().flatMap((candidate) => Object.keys(candidate.views)))].join(", ");
  throw new AppError("invalid_argument", `unknown view for this tool [view=${request.view}, tool=${request.toolName}, views=${known}]`);
}

/**
 * {@link selectView} over one layer of specs.
 * @throws AppError invalid_argument when specs match the tool but none has the requested view
 */
export function selectViewSpec(specs: readonly ViewSpec[], request: ViewRequest): SelectedView | undefined {
  return selectView([specs], request);
}
