import { AppError } from "@loupe/errors";
import type { CompiledRule, RedactionRule } from "./redaction-rule.js";

const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const ALLOWED_FLAGS = "imsu";
const MAX_PATTERN_CHARS = 4096;
const MAX_KEYWORDS = 64;

/**
 * Validates and compiles redaction rules, keeping their order (the first
 * rule wins where matches overlap).
 *
 * Throws AppError "invalid_argument" listing every problem, each naming its
 * rule: a name that is not 1–64 lowercase letters, digits or "-"; an empty,
 * too long (> 4,096 characters) or invalid pattern; flags other than
 * "i", "m", "s", "u" or repeated; a group that is not a whole number or
 * that the pattern does not have; keywords that are not non-empty strings;
 * a pattern that matches the empty string.
 */
export function compileRedactionRules(rules: readonly RedactionRule[]): CompiledRule[] {
  const problems: string[] = [];
  const compiled: CompiledRule[] = [];
  rules.forEach((rule, index) => {
    const ruleProblems = redactionRuleProblems(rule, index);
    if (ruleProblems.length > 0) problems.push(...ruleProblems);
    else compiled.push(compileValid(rule));
  });
  if (problems.length > 0) throw new AppError("invalid_argument", `invalid redaction rules: ${problems.join("; ")}`);
  return compiled;
}

/**
 * Every problem with one rule (empty when it is valid), each naming the rule
 * as `rule <name> (#index)`.
 * @internal
 */
export function redactionRuleProblems(rule: RedactionRule, index: number): string[] {
  const label = `rule ${typeof rule.name === "string" && rule.name !== "" ? rule.name : "?"} (#${index})`;
  const problems: string[] = [];
  if (typeof rule.name !== "string" || !NAME.test(rule.name)) {
    problems.push(`${label}: name must be 1-64 lowercase letters, digits or "-"`);
  }
  const flags = rule.flags ?? "";
  if (typeof flags !== "string" || [...flags].some((flag, at) => !ALLOWED_FLAGS.includes(flag) || flags.indexOf(flag) !== at)) {
    problems.push(`${label}: flags must be some of "${ALLOWED_FLAGS}", each at most once [flags=${String(flags)}]`);
  }
  const group = rule.group ?? 0;
  if (!Number.isSafeInteger(group) || group < 0) problems.push(`${label}: group must be a whole number, 0 or more [group=${String(group)}]`);
  if (
    rule.keywords !== undefined &&
    !(Array.isArray(rule.keywords) && rule.keywords.length <= MAX_KEYWORDS && rule.keywords.every((k) => typeof k === "string" && k !== ""))
  ) {
    problems.push(`${label}: keywords must be a list of at most ${MAX_KEYWORDS} non-empty strings`);
  }
  if (typeof rule.pattern !== "string" || rule.pattern === "" || rule.pattern.length > MAX_PATTERN_CHARS) {
    problems.push(`${label}: pattern must be a non-empty string of at most ${MAX_PATTERN_CHARS} characters`);
    return problems;
  }
  if (problems.length > 0) return problems;
  let regex: RegExp;
  try {
    regex = new RegExp(rule.pattern, flags);
  } catch (error) {
    problems.push(`${label}: invalid regular expression [${error instanceof Error ? error.message : String(error)}]`);
    return problems;
  }
  const groups = (new RegExp(`${rule.pattern}|`, flags).exec("")?.length ?? 1) - 1;
  if (group > groups) problems.push(`${label}: the pattern has ${groups} capture groups [group=${group}]`);
  if (regex.test("")) problems.push(`${label}: pattern matches the empty string`);
  return problems;
}

function compileValid(rule: RedactionRule): CompiledRule {
  const group = rule.group ?? 0;
  const flags = rule.flags ?? "";
  return {
    name: rule.name,
    regex: new RegExp(rule.pattern, `${flags}g${group > 0 ? "d" : ""}`),
    group,
    keywords: [...(rule.keywords ?? [])],
    ignoreCase: flags.includes("i"),
  };
}
