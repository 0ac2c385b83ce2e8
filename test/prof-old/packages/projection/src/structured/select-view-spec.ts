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

function globPattern(glob: string): RegExp {
  const body = [...glob].map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.+^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, "is");
}

function hasView(spec: ViewSpec, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(spec.views, name);
}

function defaultView(spec: ViewSpec): string {
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

/**
 * Chooses the field view for a request: among the specs whose tool glob
 * matches the tool name (case-insensitive) and whose source, when set,
 * equals the request's (case-insensitive), the most specific (source-bound
 * over any-source, exact tool over glob, more literal characters, then the
 * earlier spec) that has the requested view; with no view requested, the
 * most specific spec's default view. Undefined when no spec matches the tool.
 *
 * @throws AppError invalid_argument when specs match the tool but none has the requested view (naming the views there are)
 */
export function selectViewSpec(specs: readonly ViewSpec[], request: ViewRequest): SelectedView | undefined {
  const matching = specs
    .map((spec, order) => ({ spec, order }))
    .filter(({ spec }) => globPattern(spec.tool).test(request.toolName) && (spec.source === undefined || spec.source.toLowerCase() === request.source.toLowerCase()))
    .sort((a, b) => compare(specificity(a.spec), specificity(b.spec)) || a.order - b.order)
    .map(({ spec }) => spec);
  const [best] = matching;
  if (best === undefined) return undefined;
  if (request.view === "") {
    const name = defaultView(best);
    const view = best.views[name];
    return view === undefined ? undefined : { spec: best, name, view };
  }
  const spec = matching.find((candidate) => hasView(candidate, request.view));
  const view = spec?.views[request.view];
  if (spec === undefined || view === undefined) {
    const known = [...new Set(matching.flatMap((candidate) => Object.keys(candidate.views)))].join(", ");
    throw new AppError("invalid_argument", `unknown view for this tool [view=${request.view}, tool=${request.toolName}, views=${known}]`);
  }
  return { spec, name: request.view, view };
}
