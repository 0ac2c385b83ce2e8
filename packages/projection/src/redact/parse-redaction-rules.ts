import { AppError } from "@loupe/errors";
import { redactionRuleProblems } from "./compile-redaction-rules.js";
import { DEFAULT_REDACTION_RULES } from "./default-redaction-rules.js";
import type { RedactionRule } from "./redaction-rule.js";

const RULE_KEYS = new Set(["name", "pattern", "flags", "group", "keywords"]);
const FILE_KEYS = new Set(["rules", "replaceDefaults", "disable"]);

/**
 * Reads a redaction configuration file and returns the rules to compile, in
 * order. Two forms:
 *
 * - an array of rules: they run before `DEFAULT_REDACTION_RULES`;
 * - `{ "rules": [...], "replaceDefaults": false, "disable": ["jwt"] }`:
 *   with replaceDefaults false (the default) the rules run before the
 *   defaults, minus the default rules named in `disable`; with true they
 *   replace the defaults (and `disable` must be absent).
 *
 * A rule is `{ "name", "pattern", "flags"?, "group"?, "keywords"? }` (see
 * `RedactionRule`). Throws AppError "invalid_argument" listing every
 * problem: invalid JSON, an unknown key, a rule that does not compile, a
 * disabled name that is not a default rule.
 */
export function parseRedactionRules(json: string): RedactionRule[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new AppError("invalid_argument", `redaction rules are not valid json [${error instanceof Error ? error.message : String(error)}]`, { cause: error });
  }
  const problems: string[] = [];
  const file = Array.isArray(value) ? { rules: value as unknown } : value;
  if (!isObject(file)) throw new AppError("invalid_argument", 'redaction rules must be an array of rules or an object with "rules"');
  for (const key of Object.keys(file)) if (!FILE_KEYS.has(key)) problems.push(`unknown key "${key}"`);
  const replaceDefaults = file["replaceDefaults"] ?? false;
  if (typeof replaceDefaults !== "boolean") problems.push("replaceDefaults must be true or false");
  const rules = readRules(file["rules"], problems);
  const disabled = readDisabled(file["disable"], replaceDefaults === true, problems);
  if (problems.length > 0) throw new AppError("invalid_argument", `invalid redaction rules: ${problems.join("; ")}`);
  if (replaceDefaults === true) return rules;
  return [...rules, ...DEFAULT_REDACTION_RULES.filter((rule) => !disabled.has(rule.name))];
}

function readRules(value: unknown, problems: string[]): RedactionRule[] {
  if (!Array.isArray(value)) {
    problems.push("rules must be an array");
    return [];
  }
  const rules: RedactionRule[] = [];
  value.forEach((item: unknown, index) => {
    if (!isObject(item)) {
      problems.push(`rule #${index} must be an object`);
      return;
    }
    const unknown = Object.keys(item).filter((key) => !RULE_KEYS.has(key));
    if (unknown.length > 0) problems.push(`rule #${index}: unknown keys ${unknown.map((key) => `"${key}"`).join(", ")}`);
    const rule = item as unknown as RedactionRule;
    problems.push(...redactionRuleProblems(rule, index));
    rules.push(rule);
  });
  return rules;
}

function readDisabled(value: unknown, replaceDefaults: boolean, problems: string[]): Set<string> {
  if (value === undefined) return new Set();
  if (replaceDefaults) problems.push("disable has no meaning when replaceDefaults is true");
  if (!Array.isArray(value) || !value.every((name) => typeof name === "string")) {
    problems.push("disable must be an array of rule names");
    return new Set();
  }
  const known = new Set(DEFAULT_REDACTION_RULES.map((rule) => rule.name));
  for (const name of value) if (!known.has(name)) problems.push(`disable: no default rule is named "${name}"`);
  return new Set(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
