import { projectCommand } from "./command/project-command.js";
import { projectConversation } from "./conversation/project-conversation.js";
import { projectEdit } from "./edit/project-edit.js";
import { projectFileRead } from "./file-read/project-file-read.js";
import { projectListing } from "./listing/project-listing.js";
import { projectMixed, type StructuredTail } from "./mixed/project-mixed.js";
import { projectSearch } from "./search/project-search.js";
import { projectGeneric } from "./generic/project-generic.js";
import { inferKind } from "./kinds/infer-kind.js";
import { projectStructuredResult } from "./structured/project-structured-result.js";
import { looksLikeJsonValue } from "./structured/looks-like-json.js";
import { shapeByView } from "./structured/shape-by-view.js";
import { insertViewMarker, viewMarker } from "./structured/view-marker.js";
import type { ViewSpec } from "./structured/view-spec.js";
import type { Projector, ProjectorContext, ProjectorInput, ResultKind } from "./projectors/projector.js";
import { resolveShares } from "./projectors/projection-shares.js";
import { createCachingCounter } from "./file-read/caching-counter.js";
import { splitLines } from "./split-lines.js";
import { utf8Length } from "./utf8-length.js";

/** A tool result as the projection core sees it (already joined into canonical text). */
export interface ResultInput {
  toolName: string;
  /** The kind the caller declared; undefined asks Loupe to infer it. */
  declaredKind: ResultKind | undefined;
  /** The call's arguments as JSON text ("" when none). */
  argsJson: string;
  /** The same arguments already parsed (see {@link parseArgs}), so they are parsed once per call; `argsJson` is then not read. */
  args?: Record<string, unknown>;
  /** Canonical text: text and json parts joined with "\n". */
  text: string;
  /** True when every non-media part is JSON (a structured-only result). */
  structuredOnly: boolean;
  /** Set when the result has text and then one JSON part (its structured content): where the JSON starts. */
  structuredTail?: StructuredTail;
  isError: boolean;
  exitCode: number | undefined;
  timedOut: boolean;
  durationMs: number | undefined;
}

/** Options for {@link projectResult}. */
export interface ProjectOptions extends ProjectorContext {
  /** The app the result comes from (selects field views). */
  source?: string;
  /** Declarative field views from configuration; a matching one shapes structured results. */
  viewSpecs?: readonly ViewSpec[];
  /** Field views from the source's rule (view_specs_json): used for tools the configuration has no spec for. */
  ruleViewSpecs?: readonly ViewSpec[];
  /** The input text's exact token count in `counter`'s encoding, when the caller has it: the fit check uses it instead of counting. */
  textTokens?: number;
  /**
   * A notice the caller shows above the view (a changed-file notice): its tokens come off the
   * budget, so notice and view together stay within it. The view does not hold it.
   */
  noticeAbove?: string;
}

/**
 * One part of the original a view left out: a line range (1-based,
 * inclusive) or a JSON pointer (with an optional 0-based, end-exclusive item
 * range), and the continuation that recovers it.
 */
export interface ViewOmission {
  description: string;
  continuationJson: string;
  startLine?: number;
  endLine?: number;
  jsonPointer?: string;
  itemStart?: number;
  itemEnd?: number;
}

/** A first view of a result. */
export interface ResultView {
  text: string;
  omissions: ViewOmission[];
  /** True when the text already fit and comes back as it was. */
  unchanged: boolean;
  /** The kind used (declared or inferred). */
  kind: ResultKind;
  /** The text's exact token count when the core counted it whole on the way (a result that fit); else absent. */
  tokens?: number;
}

/** A call's arguments from args_json: the object, or {} when absent, malformed or not an object. */
export function parseArgs(argsJson: string): Record<string, unknown> {
  if (argsJson === "") return {};
  try {
    const value: unknown = JSON.parse(argsJson);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // Malformed args are refused by the gateway before projection; here they simply tell nothing.
    return {};
  }
}

/**
 * A structured-only result as a JSON (or sectioned text) view, shaped first
 * by the field view its source, tool and the requested view select (the
 * configuration's, then the rule's); undefined when the text is not one JSON value.
 */
function projectStructuredText(text: string, toolName: string, options: ProjectOptions): Omit<ResultView, "kind"> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Several JSON parts joined, or JSON-looking text: projected as text instead.
    return undefined;
  }
  const shaped = shapeByView(value, toolName, options);
  // What the view left out is said in the view, counted against the budget: inside a JSON view as a
  // "$loupe_view" marker (it stays valid JSON), after a text rendering as a notice line.
  const notice = shaped.omission?.description ?? "";
  const marker = viewMarker(shaped, options.resultId) ?? "";
  const reserve = notice === "" ? 0 : options.counter.count(marker.length > notice.length ? marker : notice) + 2;
  const view = projectStructuredResult(shaped.value, { ...options, budgetTokens: Math.max(1, options.budgetTokens - reserve) }, { hasText: false });
  const omissions: ViewOmission[] = view.omissions.map((omission) => ({ ...omission }));
  if (shaped.omission) omissions.push({ ...shaped.omission });
  if (notice === "") return { text: view.text, unchanged: false, omissions };
  const marked = view.format === "json" ? insertViewMarker(view.text, marker) : undefined;
  return { text: marked ?? `${view.text}${view.text.endsWith("\n") ? "" : "\n"}${notice}`, unchanged: false, omissions };
}

/** The text's token count when it is within the budget, else false. */
function fitCount(text: string, options: ProjectOptions): number | false {
  if (options.textTokens === undefined) return options.counter.within(text, options.budgetTokens);
  return options.textTokens <= options.budgetTokens ? options.textTokens : false;
}

const PROJECTORS: Partial<Record<ResultKind, Projector>> = {
  command: projectCommand,
  file_read: projectFileRead,
  search: projectSearch,
  directory_list: projectListing,
  conversation: projectConversation,
  edit: projectEdit,
  mcp: projectGeneric,
  generic: projectGeneric,
};

function kindOf(input: ResultInput, args: Record<string, unknown>): ResultKind {
  if (input.structuredOnly && input.declaredKind === undefined) return "structured";
  const kind = inferKind({ toolName: input.toolName, args, text: input.text, declared: input.declaredKind });
  // An MCP or unknown tool answering one JSON object or array in text is shaped as structured (a file read of JSON stays a file read).
  return (kind === "mcp" || kind === "generic") && input.structuredTail === undefined && looksLikeJsonValue(input.text) ? "structured" : kind;
}

/**
 * The kind {@link projectResult} projects a result as: the declared one, "structured" for a
 * result of JSON parts only, else inferred from the tool name, arguments and text. A caller that
 * needs the kind before projecting (to look up a file's last read) passes it back as the input's
 * `declaredKind`, so it is decided once.
 */
export function resultKindOf(input: ResultInput): ResultKind {
  return kindOf(input, input.args ?? parseArgs(input.argsJson));
}

/**
 * Projects one result: unchanged when it already fits the budget and the
 * byte cap (with its token count); otherwise cut by the projector of its kind
 * (declared, or inferred from tool name, args and content). Pure and
 * deterministic. `shares` replaces some of DEFAULT_SHARES.
 * A caching counter (see {@link createCachingCounter}) passed
 * as `counter` is used as it is, so the caller can count the original and the
 * view afterwards from the line counts this call already made.
 * @throws AppError `invalid_argument` when `shares` names an unknown share or one outside [0, 1]
 */
export function projectResult(input: ResultInput, given: ProjectOptions): ResultView {
  const { text } = input;
  // A bad override fails every call, not only the ones a projector cuts.
  if (given.shares !== undefined) resolveShares(given.shares);
  // One cache of line counts for the whole call: the fit check, the projector's shares, the selection and the final check.
  const counter = createCachingCounter(given.counter);
  const noticeTokens = given.noticeAbove === undefined || given.noticeAbove === "" ? 0 : counter.count(given.noticeAbove);
  const options: ProjectOptions = { ...given, counter, budgetTokens: Math.max(1, given.budgetTokens - noticeTokens) };
  const args = input.args ?? parseArgs(input.argsJson);
  const kind = kindOf(input, args);
  // UTF-8 never takes fewer bytes than UTF-16 code units: a long text is over the cap without counting.
  const fit = text.length <= options.maxViewBytes && utf8Length(text) <= options.maxViewBytes ? fitCount(text, options) : false;
  if (fit !== false) return { text, omissions: [], unchanged: true, kind, tokens: fit };
  const projectorInput: ProjectorInput = {
    text,
    lines: splitLines(text),
    toolName: input.toolName,
    args,
    isError: input.isError,
    exitCode: input.exitCode,
    timedOut: input.timedOut,
    durationMs: input.durationMs,
  };
  if (kind === "structured") {
    const structured = projectStructuredText(text, input.toolName, options);
    if (structured) return { ...structured, kind };
  }
  const projector = PROJECTORS[kind] ?? projectGeneric;
  if (input.structuredTail) {
    const mixed = projectMixed(projectorInput, input.structuredTail, projector, options);
    if (mixed) return { ...mixed, kind };
  }
  const view = projector(projectorInput, options);
  return { ...view, kind };
}
