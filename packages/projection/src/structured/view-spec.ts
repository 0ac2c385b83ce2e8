import { AppError } from "@loupe/errors";
import { isProtectedKey } from "./field-classes.js";
import { parseFieldPath } from "./field-path.js";

/**
 * One named field view: the fields to keep (field paths, see
 * parseFieldPath) and, optionally, fields to drop from what is kept.
 * Identifiers, qualifications and error/outcome fields of every kept object
 * are kept even when not listed, and cannot be dropped.
 */
export interface FieldView {
  keep: string[];
  drop?: string[];
  /** When a model should ask for this view (one line, shown in `loupe views` and the MCP tools' descriptions). */
  when?: string;
}

/**
 * Field views for the results of one tool (a case-insensitive glob: `*` any
 * characters, `?` one), optionally only for one source (app).
 */
export interface ViewSpec {
  tool: string;
  source?: string;
  /** Named views, e.g. "concise" and "detailed". */
  views: Record<string, FieldView>;
  /** The view used when a request names none; default "concise" when present, else the first view. */
  default?: string;
}

const SPEC_FIELDS = new Set(["tool", "source", "views", "default"]);
const VIEW_FIELDS = new Set(["keep", "drop", "when"]);
const MAX_WHEN_CHARS = 300;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkPaths(value: unknown, where: string, problems: string[], isDrop: boolean): string[] {
  if (!Array.isArray(value) || value.some((path) => typeof path !== "string")) {
    problems.push(`${where} must be an array of strings`);
    return [];
  }
  const paths = value as string[];
  paths.forEach((path, index) => {
    const parsed = parseFieldPath(path);
    if ("error" in parsed) problems.push(`${where}[${String(index)}] ${JSON.stringify(path)} is not a field path: ${parsed.error}`);
    else if (isDrop) {
      const last = parsed.segments[parsed.segments.length - 1];
      if (last?.kind === "key" && isProtectedKey(last.key))
        problems.push(`${where}[${String(index)}] ${JSON.stringify(path)} names an identifier, qualification or error field, which views never drop`);
    }
  });
  return paths;
}

function parseView(value: unknown, where: string, problems: string[]): FieldView {
  if (!isRecord(value)) {
    problems.push(`${where} must be an object with "keep"`);
    return { keep: [] };
  }
  for (const field of Object.keys(value)) if (!VIEW_FIELDS.has(field)) problems.push(`${where} has an unknown field ${JSON.stringify(field)}`);
  const view: FieldView = { keep: checkPaths(value.keep, `${where}.keep`, problems, false) };
  if (value.drop !== undefined) view.drop = checkPaths(value.drop, `${where}.drop`, problems, true);
  const { when } = value;
  if (when !== undefined) {
    if (typeof when !== "string" || when.trim() === "" || when.length > MAX_WHEN_CHARS || /[\r\n]/.test(when)) {
      problems.push(`${where}.when must be one line of 1 to ${String(MAX_WHEN_CHARS)} characters`);
    } else view.when = when.trim();
  }
  return view;
}

function parseSpec(value: unknown, index: number, problems: string[]): ViewSpec | undefined {
  const where = `view spec ${String(index)}`;
  if (!isRecord(value)) {
    problems.push(`${where} must be an object`);
    return undefined;
  }
  for (const field of Object.keys(value)) if (!SPEC_FIELDS.has(field)) problems.push(`${where} has an unknown field ${JSON.stringify(field)}`);
  const { tool, source } = value;
  if (typeof tool !== "string" || tool.trim() === "") problems.push(`${where}: "tool" must be a non-empty string`);
  if (source !== undefined && (typeof source !== "string" || source === "")) problems.push(`${where}: "source" must be a non-empty string when present`);
  if (!isRecord(value.views) || Object.keys(value.views).length === 0) {
    problems.push(`${where}: "views" must be an object with at least one named view`);
    return undefined;
  }
  // fromEntries defines own members, so a view named "__proto__" stays a view.
  const views: Record<string, FieldView> = Object.fromEntries(
    Object.entries(value.views).map(([name, view]) => [name, parseView(view, `${where} view ${JSON.stringify(name)}`, problems)]),
  );
  if (value.default !== undefined && (typeof value.default !== "string" || !Object.prototype.hasOwnProperty.call(views, value.default))) {
    problems.push(`${where}: "default" must name one of its views (${Object.keys(views).join(", ")})`);
  }
  const spec: ViewSpec = { tool: String(tool), views };
  if (typeof source === "string") spec.source = source;
  if (typeof value.default === "string") spec.default = value.default;
  return spec;
}

/**
 * Parses view specs from configuration: a JSON array of {@link ViewSpec}.
 * Checks every spec and reports every problem at once.
 *
 * @throws AppError invalid_argument naming each problem (bad JSON, missing or
 *   mistyped fields, unknown fields, bad field paths, a drop of a protected
 *   field, a default that names no view)
 */
export function parseViewSpecs(json: string): ViewSpec[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new AppError("invalid_argument", `view specs are not valid json [${error instanceof Error ? error.message : String(error)}]`, { cause: error });
  }
  if (!Array.isArray(value)) throw new AppError("invalid_argument", "view specs must be a json array of specs");
  const problems: string[] = [];
  const specs = value.map((spec, index) => parseSpec(spec, index, problems));
  if (problems.length > 0) throw new AppError("invalid_argument", `invalid view specs: ${problems.join("; ")}`);
  return specs.filter((spec): spec is ViewSpec => spec !== undefined);
}
