import type { ProjectOptions, ResultView, ViewOmission } from "../project-result.js";
import type { Projector, ProjectorInput } from "../projectors/projector.js";
import { continuationJson } from "../continuation.js";
import { formatLine } from "../format-number.js";
import { splitLines } from "../split-lines.js";
import { projectStructured, structuredIndexBudget } from "../structured/project-structured.js";
import { shapeByView } from "../structured/shape-by-view.js";

/** Where the one JSON part of a result that also has text starts in its canonical text. */
export interface StructuredTail {
  /** UTF-16 offset of the JSON part in the canonical text (it runs to the end). */
  startChar: number;
}

/**
 * A result with readable text and one JSON part after it (e.g. an MCP result
 * with structured content): the text is projected by its own kind's
 * projector, and the structured part becomes only a bounded index of its
 * shape, identity fields and representative items (not a second copy), with
 * JSON-pointer continuations into that part and a line range for all of it.
 * When a field view applies to the tool (configuration or the source's rule),
 * the structured part is instead shown shaped by it, in up to half the budget,
 * naming what the view left out. Undefined when the JSON part does not parse.
 */
export function projectMixed(input: ProjectorInput, tail: StructuredTail, projector: Projector, options: ProjectOptions): Omit<ResultView, "kind"> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(input.text.slice(tail.startChar));
  } catch {
    // Not one JSON value after all: the caller projects the whole text as text.
    return undefined;
  }
  // The canonical text joins parts with "\n": the text part ends just before the JSON starts.
  const text = input.text.slice(0, Math.max(0, tail.startChar - 1));
  const lines = splitLines(text);
  const jsonStartLine = splitLines(input.text.slice(0, tail.startChar)).length + 1;
  const totalLines = splitLines(input.text).length;
  const shaped = shapeByView(value, input.toolName, options);
  const indexBudget = structuredIndexBudget(options.budgetTokens);
  const index = shaped.selected
    ? projectStructured(shaped.value, { ...options, budgetTokens: Math.max(indexBudget, Math.floor(options.budgetTokens / 2)) }, { mode: "full" })
    : projectStructured(value, { ...options, budgetTokens: indexBudget }, { mode: "index" });
  const whole = options.resultId === "" ? "" : continuationJson({ result_id: options.resultId, start_line: jsonStartLine, end_line: totalLines });
  const form = shaped.selected ? `in view "${shaped.selected.name}"` : "as an index";
  const heading = `[loupe] structured content (lines ${formatLine(jsonStartLine)}–${formatLine(totalLines)}), ${form}${whole === "" ? "" : `; all of it: ${whole}`}`;
  const indexPart = `${heading}\n${index.text}${shaped.omission ? `\n${shaped.omission.description}` : ""}`;
  let rest = options.budgetTokens - options.counter.count(indexPart) - 1;
  for (let attempt = 0; attempt < 3; attempt++) {
    const textView =
      options.counter.within(text, rest) !== false
        ? { text: text === "" ? "" : text + "\n", omissions: [] }
        : projector({ ...input, text, lines }, { ...options, budgetTokens: Math.max(1, rest) });
    const separator = textView.text === "" || textView.text.endsWith("\n") ? "" : "\n";
    const view = `${textView.text}${separator}${indexPart}`;
    const over = options.counter.count(view) - options.budgetTokens;
    if (over > 0 && attempt < 2) {
      rest -= over + 1;
      continue;
    }
    const omissions: ViewOmission[] = [
      ...textView.omissions.map((omission) => ({ ...omission })),
      { description: heading, continuationJson: whole, startLine: jsonStartLine, endLine: totalLines },
      ...index.omissions.map((omission) => ({ ...omission })),
      ...(shaped.omission ? [{ ...shaped.omission }] : []),
    ];
    return { text: view, omissions, unchanged: false };
  }
  return undefined;
}
