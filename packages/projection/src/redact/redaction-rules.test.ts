import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { compileRedactionRules } from "./compile-redaction-rules.js";
import { DEFAULT_REDACTION_RULES } from "./default-redaction-rules.js";
import { parseRedactionRules } from "./parse-redaction-rules.js";
import { redactSecrets } from "./redact-secrets.js";

function invalidArgument(pattern: RegExp): (error: unknown) => boolean {
  return (error) => isAppError(error) && error.code === "invalid_argument" && pattern.test(error.message);
}

describe("compileRedactionRules()", () => {
  it("compiles the defaults, every rule with keywords", () => {
    assert.equal(compileRedactionRules(DEFAULT_REDACTION_RULES).length, DEFAULT_REDACTION_RULES.length);
    for (const rule of DEFAULT_REDACTION_RULES) assert.ok((rule.keywords ?? []).length > 0, rule.name);
  });

  it("names the rule whose pattern does not compile", () => {
    assert.throws(() => compileRedactionRules([{ name: "acme-key", pattern: "acme_(" }]), invalidArgument(/rule acme-key \(#0\): invalid regular expression/));
  });

  it("lists every problem at once", () => {
    const rules = [
      { name: "Bad Name", pattern: "x" },
      { name: "flags", pattern: "x", flags: "gy" },
      { name: "group", pattern: "(a)b", group: 2 },
      { name: "empty", pattern: "a*" },
      { name: "keywords", pattern: "k", keywords: [""] },
    ];
    assert.throws(
      () => compileRedactionRules(rules),
      invalidArgument(/name must be.*flags must be.*has 1 capture groups \[group=2\].*matches the empty string.*keywords must be/),
    );
  });

  it("skips a rule whose keywords are absent, comparing them case-insensitively under the i flag", () => {
    const rules = compileRedactionRules([
      { name: "lower-keyword", pattern: "acme_[0-9]{4}", flags: "i", keywords: ["acme_"] },
      { name: "upper-keyword", pattern: "acme_[0-9]{4}", flags: "i", keywords: ["ACME_"] },
    ]);
    assert.deepEqual(redactSecrets("ACME_1234", rules).byRule, { "lower-keyword": 1 });
    const [exact] = compileRedactionRules([{ name: "exact", pattern: "[a-z]{3}_[0-9]{4}", flags: "", keywords: ["abc_"] }]);
    assert.equal(redactSecrets("ABC_1234 xyz_1234", [exact!]).count, 0, "keyword absent in its exact case");
  });
});

describe("redactSecrets() with custom rules", () => {
  it("masks a group, lets the first rule win and leaves the rest", () => {
    const rules = compileRedactionRules([
      { name: "acme-key", pattern: "acme_[a-z0-9]{8}", keywords: ["acme_"] },
      { name: "ticket", pattern: "ticket=([A-Z]{2}-[0-9]+)", group: 1 },
      { name: "greedy", pattern: "[a-z_]{4,}[0-9]{4,}" },
    ]);
    const result = redactSecrets("key acme_ab12cd34 ticket=AB-42 plain", rules);
    assert.deepEqual(result, { text: "key [REDACTED:acme-key] ticket=[REDACTED:ticket] plain", count: 2, byRule: { "acme-key": 1, ticket: 1 } });
  });
});

describe("parseRedactionRules()", () => {
  const custom = { name: "acme-key", pattern: "acme_[a-z0-9]{8}" };

  it("puts an array of rules before the defaults", () => {
    assert.deepEqual(parseRedactionRules(JSON.stringify([custom])), [custom, ...DEFAULT_REDACTION_RULES]);
  });

  it("extends, disables or replaces the defaults", () => {
    const extended = parseRedactionRules(JSON.stringify({ rules: [custom], replaceDefaults: false, disable: ["jwt"] }));
    assert.deepEqual(extended, [custom, ...DEFAULT_REDACTION_RULES.filter((rule) => rule.name !== "jwt")]);
    assert.deepEqual(parseRedactionRules(JSON.stringify({ rules: [custom], replaceDefaults: true })), [custom]);
    assert.deepEqual(parseRedactionRules(JSON.stringify({ rules: [] })), [...DEFAULT_REDACTION_RULES]);
  });

  it("rejects invalid json", () => {
    assert.throws(() => parseRedactionRules("[{"), invalidArgument(/not valid json/));
    assert.throws(() => parseRedactionRules('"rules"'), invalidArgument(/must be an array of rules or an object/));
  });

  it("lists every problem of the file", () => {
    const file = { rules: [{ name: "a", pattern: "(", flag: "i" }, 3], replaceDefaults: "no", disable: ["nope"], extra: 1 };
    assert.throws(
      () => parseRedactionRules(JSON.stringify(file)),
      invalidArgument(
        /unknown key "extra".*replaceDefaults must be true or false.*rule #0: unknown keys "flag".*rule a \(#0\): invalid regular expression.*rule #1 must be an object.*no default rule is named "nope"/,
      ),
    );
  });
});
