import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { joinPolicySettings } from "./join-policy-settings.js";
import { parseCorePolicyName } from "./parse-core-policy.js";
import { needsLoupe, resolvePolicies } from "./resolve-policies.js";

const invalid =
  (pattern: RegExp) =>
  (error: unknown): boolean =>
    isAppError(error) && error.code === "invalid_argument" && pattern.test(error.message);

describe("parseCorePolicyName()", () => {
  it("reads the budget and dotted shares, in any order", () => {
    assert.deepEqual(parseCorePolicyName("core"), { name: "core", budgetTokens: 0, shares: undefined, intent: "off", model: "" });
    assert.deepEqual(parseCorePolicyName("core:budget=1000"), { name: "core:budget=1000", budgetTokens: 1000, shares: undefined, intent: "off", model: "" });
    assert.deepEqual(parseCorePolicyName("core:intent=on,model=gpt-4o,budget=1000"), {
      name: "core:intent=on,model=gpt-4o,budget=1000",
      budgetTokens: 1000,
      shares: undefined,
      intent: "on",
      model: "gpt-4o",
    });
    assert.equal(parseCorePolicyName("core:intent=recent").intent, "recent");
    assert.equal(parseCorePolicyName("core:intent=oracle").intent, "oracle");
    assert.throws(() => parseCorePolicyName("core:intent=yes"), invalid(/core intent is on, recent, oracle or off/));
    const spec = parseCorePolicyName("core:command.scriptHead=0.5,budget=1000,command.tail=.3,fileRead.head=1");
    assert.equal(spec.budgetTokens, 1000);
    assert.deepEqual(JSON.parse(JSON.stringify(spec.shares)), { command: { scriptHead: 0.5, tail: 0.3 }, fileRead: { head: 1 } });
  });

  it("refuses bad settings with the policy named", () => {
    const cases: Array<[string, RegExp]> = [
      ["core:", /key=value/],
      ["core:budget", /key=value/],
      ["core:budget=", /key=value/],
      ["core:budget=1=2", /key=value/],
      ["core:budget=0", /core budget must be a whole number of tokens.*budget=0/],
      ["core:budget=1e3", /core budget must be a whole number/],
      ["core:budget=1000,budget=2000", /given twice \[policy=core:budget=1000,budget=2000, setting=budget\]/],
      ["core:tail=0.2", /keys are budget or group\.share.*groups=command\|generic/],
      ["core:command.tail.x=0.2", /keys are budget or group\.share/],
      ["core:command.tail=1.5", /share must be a number from 0 to 1 \[share=command\.tail, value=1\.5\] \[policy=core:command\.tail=1\.5\]/],
      ["core:command.tail=-0.1", /share must be a number from 0 to 1/],
      ["core:command.tail=abc", /share must be a number from 0 to 1 \[policy=core:command\.tail=abc, share=command\.tail, value=abc\]/],
      ["core:command.tail=0x1", /share must be a number from 0 to 1/],
      ["core:commands.tail=0.2", /unknown shares group \[group=commands/],
      ["core:command.tale=0.2", /unknown share \[share=command\.tale, known=scriptHead\|/],
      ["core:__proto__.tail=0.2", /unknown shares group/],
      ["core:command.__proto__=0.2", /unknown share/],
    ];
    for (const [name, pattern] of cases) assert.throws(() => parseCorePolicyName(name), invalid(pattern), name);
    assert.equal(({} as Record<string, unknown>)["tail"], undefined, "no prototype touched");
  });
});

describe("resolvePolicies() with core policies", () => {
  it("builds them without a client, and they need no Loupe", () => {
    const names = ["none", "core", "core:budget=1000", "core:budget=1000,command.scriptHead=0.5,command.tail=0.3"];
    assert.equal(needsLoupe(names), false);
    assert.deepEqual(
      resolvePolicies(names, [], undefined).map((policy) => policy.name),
      names,
    );
  });

  it("joins settings split off by a comma-separated --policy back to their core policy", () => {
    const split = "none,core:budget=1000,command.scriptHead=0.5,command.tail=0.3,core,fileRead.head=0.5,core:budget=2000,seed-rule".split(",");
    assert.deepEqual(joinPolicySettings(split), [
      "none",
      "core:budget=1000,command.scriptHead=0.5,command.tail=0.3",
      "core:fileRead.head=0.5",
      "core:budget=2000",
      "seed-rule",
    ]);
    assert.deepEqual(
      resolvePolicies(split, [], undefined).map((policy) => policy.name),
      joinPolicySettings(split),
    );
    assert.deepEqual(joinPolicySettings(["none", "command.tail=0.3"]), ["none", "command.tail=0.3"]);
    assert.throws(() => resolvePolicies(["none", "command.tail=0.3"], [], undefined), invalid(/unknown policy \[policy=command\.tail=0\.3/));
  });

  it("builds blind cuts beside core policies, joining their split-off settings", () => {
    const split = "blind,core:intent=on,blind:core:budget=1000,intent=on,cline,deep-agents".split(",");
    const names = resolvePolicies(split, [], undefined).map((policy) => policy.name);
    assert.deepEqual(names, ["blind:core", "core:intent=on", "blind:core:budget=1000,intent=on", "cline", "deep-agents"]);
    assert.equal(needsLoupe(["blind:loupe:intent=on"]), true);
    assert.equal(needsLoupe(["loupe:intent=on,model=recorded"]), true);
    assert.deepEqual(
      resolvePolicies(["core:intent=on,model=recorded", "blind:core:intent=on,model=recorded"], [], undefined).map((policy) => policy.name),
      ["core:intent=on,model=recorded", "blind:core:intent=on,model=recorded"],
    );
    assert.throws(() => resolvePolicies(["blind:cline"], [], undefined), invalid(/blind takes a core or loupe policy/));
  });

  it("builds head cuts beside core policies, joining their split-off settings", () => {
    const split = "core:intent=on,head:core:budget=1000,intent=on".split(",");
    const names = resolvePolicies(split, [], undefined).map((policy) => policy.name);
    assert.deepEqual(names, ["core:intent=on", "head:core:budget=1000,intent=on"]);
    assert.equal(needsLoupe(["head:loupe:intent=on"]), true);
    assert.equal(needsLoupe(["head:core"]), false);
    assert.throws(() => resolvePolicies(["head:cline"], [], undefined), invalid(/head takes a core or loupe policy/));
    assert.throws(() => resolvePolicies(["head:blind:core"], [], undefined), invalid(/head takes a core or loupe policy/));
  });

  it("refuses a bad one, a core-like unknown name and a name given twice", () => {
    assert.throws(() => resolvePolicies(["core:command.tail=2"], [], undefined), invalid(/share must be a number from 0 to 1/));
    assert.throws(
      () => resolvePolicies(["corex"], [], undefined),
      invalid(/unknown policy \[policy=corex, known=.*\|core\|core:budget=N,intent=on\|recent\|oracle,model=M\|recorded,group\.share=X\|blind\|/),
    );
    assert.throws(() => resolvePolicies(["core:budget=900", "core:budget=900"], [], undefined), invalid(/policy named twice/));
  });
});
