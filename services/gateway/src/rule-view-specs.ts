import { parseViewSpecs, type ViewSpec } from "@loupe/projection";
import type { SourceRule } from "@loupe/rules";

// Rules change rarely and their view_specs_json is validated when stored: parsed once per distinct text.
const MAX_CACHED = 256;
const parsed = new Map<string, readonly ViewSpec[]>();

/**
 * The field views a source's rule declares (its view_specs_json), parsed once per distinct text;
 * empty when the rule has none. A stored rule that no longer parses gives none rather than failing
 * every call of its source (rules are validated when they are put).
 */
export function ruleViewSpecs(rule: SourceRule | undefined): readonly ViewSpec[] {
  const json = rule?.viewSpecsJson ?? "";
  if (json === "") return [];
  const cached = parsed.get(json);
  if (cached !== undefined) return cached;
  let specs: readonly ViewSpec[];
  try {
    specs = parseViewSpecs(json);
  } catch {
    specs = [];
  }
  if (parsed.size >= MAX_CACHED) parsed.delete(parsed.keys().next().value as string);
  parsed.set(json, specs);
  return specs;
}
