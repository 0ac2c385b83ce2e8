import { projectConversation } from "./conversation/project-conversation.js";
import { projectEdit } from "./edit/project-edit.js";
import { projectGeneric } from "./generic/project-generic.js";
import { inferKind } from "./kinds/infer-kind.js";
import type { LineOmission } from "./head-tail-view.js";
import type { Projector, ProjectorContext, ProjectorInput, ResultKind } from "./projectors/projector.js";
import { splitLines } from "./split-lines.js";
import { utf8Length } from "./utf8-length.js";

/** A tool result as the projection core sees it (already joined into canonical text). */
export interface ResultInput {
  toolName: string;
  /** The kind the caller declared; undefined asks Loupe to infer it. */
  declaredKind: ResultKind | undefined;
  /** The call's arguments as JSON text ("" when none). */
  argsJson: string;
  /** Canonical text: text and json parts joined with "\n". */
  text: string;
  /** True when every non-media part is JSON (a structured-only result). */
  structuredOnly: boolean;
  isError: boolean;
  exitCode: number | undefined;
  timedOut: boolean;
  durationMs: number | undefined;
}

/** Options for {@link projectResult}. */
export type ProjectOptions = ProjectorContext;

/** A first view of a result. */
export interface ResultView {
  text: string;
  omissions: LineOmission[];
  /** True when the text already fit and comes back as it was. */
  unchanged: boolean;
  /** The kind used (declared or inferred). */
  kind: ResultKind;
}

function parseArgs(argsJson: string): Record<string, unknown> {
  if (argsJson === "") return {};
  try {
    const value: unknown = JSON.parse(argsJson);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // Malformed args are refused by the gateway before projection; here they simply tell nothing.
    return {};
  }
}

const PROJECTORS: Partial<Record<ResultKind, Projector>> = {
  conversation: projectConversation,
  edit: projectEdit,
  mcp: projectGeneric,
  generic: projectGeneric,
};

/**
 * Projects one result: unchanged when it already fits the budget and the
 * byte cap; otherwise cut by the projector of its kind (declared, or inferred
 * from tool name, args and content). Pure and deterministic.
 */
export function projectResult(input: ResultInput, options: ProjectOptions): ResultView {
  const { text } = input;
  const args = parseArgs(input.argsJson);
  const kind = input.structuredOnly && input.declaredKind === undefined ? "structured" : inferKind({ toolName: input.toolName, args, text, declared: input.declaredKind });
  // UTF-8 never takes fewer bytes than UTF-16 code units: a long text is over the cap without counting.
  if (text.length <= options.maxViewBytes && utf8Length(text) <= options.maxViewBytes && options.counter.within(text, options.budgetTokens) !== false) {
    return { text, omissions: [], unchanged: true, kind };
  }
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
  const projector = PROJECTORS[kind] ?? projectGeneric;
  const view = projector(projectorInput, options);
  return { ...view, kind };
}
