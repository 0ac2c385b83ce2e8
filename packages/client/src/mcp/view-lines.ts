/** One named field view, as RulesService.ListViews answers it (FieldViewInfo). */
export interface FieldViewLine {
  tool: string;
  source: string;
  name: string;
  when: string;
  keep: readonly string[];
  drop: readonly string[];
  isDefault: boolean;
}

const SHOWN_PATHS = 8;
/** At most this many views are described in a tool's description (the rest: `loupe views`). */
export const MAX_DESCRIBED_VIEWS = 24;

function paths(list: readonly string[]): string {
  return list.slice(0, SHOWN_PATHS).join(", ") + (list.length > SHOWN_PATHS ? `, … (${String(list.length)} in all)` : "");
}

/** One line for a view: `tool view "name" (default): when — keeps a, b; drops c`. */
export function describeView(view: FieldViewLine): string {
  const where = view.source === "" ? view.tool : `${view.tool} from ${view.source}`;
  const when = view.when === "" ? "" : `: ${view.when}`;
  const drop = view.drop.length === 0 ? "" : `; drops ${paths(view.drop)}`;
  return `${where} view "${view.name}"${view.isDefault ? " (default)" : ""}${when} — keeps ${paths(view.keep)}${drop}`;
}

/** The paragraph read_result's description ends with: the views a model can ask for, one per line; "" when none. */
export function viewsParagraph(views: readonly FieldViewLine[]): string {
  if (views.length === 0) return "";
  const shown = views.slice(0, MAX_DESCRIBED_VIEWS).map((view) => `- ${describeView(view)}`);
  const more = views.length > MAX_DESCRIBED_VIEWS ? [`- … and ${String(views.length - MAX_DESCRIBED_VIEWS)} more (loupe views)`] : [];
  return (
    "\nStructured results of these tools have field views; pass view (with result_id, optionally json_pointer into the shaped value) for that view of the saved original — the tool is not run again:\n" +
    [...shown, ...more].join("\n")
  );
}
