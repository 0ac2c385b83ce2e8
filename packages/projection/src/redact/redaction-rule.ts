/**
 * One redaction rule, as written in code or in a configuration file.
 *
 * `pattern` is JavaScript regular-expression source (no slashes); `flags`
 * may hold `i`, `m`, `s` and `u` (the redactor adds `g`, and `d` when it
 * needs group indices). `group` names the capture group whose text is
 * masked; 0 (the default) masks the whole match. `keywords` is a cheap
 * prefilter: when given, the rule runs only on texts that contain at least
 * one of them (compared case-insensitively when `flags` has `i`), so that
 * texts without secrets cost a few substring searches.
 *
 * Patterns must run in linear time: bounded quantifiers (`{1,256}`), no
 * nested unbounded repetition; the redactor cannot check this for you.
 */
export interface RedactionRule {
  /** Lowercase letters, digits and "-", 1–64 characters; shown in the mask (`[REDACTED:name]`). Several rules may share a name: their counts add up. */
  readonly name: string;
  /** JavaScript regular-expression source. */
  readonly pattern: string;
  /** Any of "i", "m", "s", "u"; default none. */
  readonly flags?: string;
  /** The capture group to mask; default 0 (the whole match). */
  readonly group?: number;
  /** Literals one of which every match contains; the rule is skipped on texts without any of them. */
  readonly keywords?: readonly string[];
}

/** A validated rule, ready for `redactSecrets` (built by `compileRedactionRules`). */
export interface CompiledRule {
  readonly name: string;
  /** Global (`g`) expression; `d` is set when `group` > 0. Use through `matchAll`, which copies it. */
  readonly regex: RegExp;
  readonly group: number;
  /** The prefilter: the rule runs only on texts holding one of these; empty means always. */
  readonly keywords: readonly string[];
  /** Whether keywords (like the pattern) ignore case. */
  readonly ignoreCase: boolean;
}
