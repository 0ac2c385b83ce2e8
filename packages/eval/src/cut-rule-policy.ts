import { AppError } from "@loupe/errors";
import { cutHeadTail, DEFAULT_CUT_RULE, isEligibleForCut, validateCutRule, type CutRule } from "@loupe/projection";
import { isShellCall } from "./corpus-row.js";
import type { Policy } from "./policy.js";

/** The seed rule: results of shell tools over 8,000 characters keep 3,000 from each end. */
export const SEED_RULE: CutRule = Object.freeze({ ...DEFAULT_CUT_RULE, keepLimitChars: 8000 });

/**
 * A head/tail cut policy (Loupe's History cut) with `rule`; nothing is saved.
 * A shell-like corpus call (see `isShellCall`) is matched against keep_tools
 * as `bash`, other calls by their own tool name.
 */
export function createCutRulePolicy(name: string, rule: CutRule): Policy {
  validateCutRule(rule);
  return {
    name,
    view: async (row) => {
      const eligible = isEligibleForCut(row.tool, row.output, rule) || (isShellCall(row) && isEligibleForCut("bash", row.output, rule));
      return { firstView: eligible ? cutHeadTail(row.output, rule).text : row.output, saved: false };
    },
  };
}

const RULE_KEYS = new Set(["keep_limit_chars", "keep_head_chars", "keep_tail_chars", "keep_tools"]);

/**
 * Parses `keep_limit_chars=8000,keep_head_chars=3000,keep_tail_chars=3000[,keep_tools=bash|shell]`
 * (head, tail and tools default to the seed rule's) into a rule and its
 * policy name `rule:<limit>/<head>/<tail>[/<tools>]`.
 *
 * @throws AppError `invalid_argument` for an unknown key, a count that is not a
 *   whole number, a missing keep_limit_chars, or a rule `validateCutRule` refuses
 */
export function parseRuleSpec(spec: string): { name: string; rule: CutRule } {
  const values = new Map<string, string>();
  for (const pair of spec
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")) {
    const [key = "", value = ""] = pair.split("=", 2);
    if (!RULE_KEYS.has(key)) throw new AppError("invalid_argument", `unknown rule key [key=${key}, rule=${spec}]`);
    values.set(key, value);
  }
  const count = (key: string, fallback: number | undefined): number => {
    const text = values.get(key);
    if (text === undefined && fallback !== undefined) return fallback;
    if (text === undefined || !/^\d+$/.test(text)) throw new AppError("invalid_argument", `rule needs ${key} as a whole number [rule=${spec}]`);
    return Number(text);
  };
  const tools = values.get("keep_tools");
  const rule: CutRule = {
    keepLimitChars: count("keep_limit_chars", undefined),
    keepHeadChars: count("keep_head_chars", SEED_RULE.keepHeadChars),
    keepTailChars: count("keep_tail_chars", SEED_RULE.keepTailChars),
    keepTools: tools === undefined ? SEED_RULE.keepTools : tools.split("|").filter((tool) => tool !== ""),
  };
  validateCutRule(rule);
  const name = `rule:${String(rule.keepLimitChars)}/${String(rule.keepHeadChars)}/${String(rule.keepTailChars)}${tools === undefined ? "" : `/${rule.keepTools.join("|")}`}`;
  return { name, rule };
}
