import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createCutRulePolicy, SEED_RULE } from "./cut-rule-policy.js";
import { readCorpus } from "./read-corpus.js";
import { runEval } from "./run-eval.js";
import { claudeCodePolicy, codexPolicy, geminiCliPolicy, nonePolicy, opencodePolicy } from "./vendor-policies.js";
import { corpusFiles } from "./testing/corpus-dir.js";

// The real-trajectory corpus (absent from a user's clone: then these tests skip).
const { dir: corpusDir, files, present } = corpusFiles(["swe-agent.jsonl.gz", "openhands.jsonl.gz"]);

describe("local policies on the real corpus (SWE-agent and OpenHands files)", { skip: present ? false : `no corpus at ${corpusDir}` }, () => {
  it("none keeps all evidence and carries the most; cutting policies carry no more; saving policies reach everything", async () => {
    const corpus = await readCorpus(files);
    assert.equal(corpus.skipped, 0);
    assert.ok(corpus.trajectories.length >= 20, String(corpus.trajectories.length));
    const policies = [nonePolicy, codexPolicy, claudeCodePolicy, geminiCliPolicy, opencodePolicy, createCutRulePolicy("seed-rule", SEED_RULE)];
    const report = await runEval(corpus.trajectories, { policies });
    const [none, ...others] = report.policies;
    assert.ok(none !== undefined && none.pooled.evidence > 50, "the sample has evidence to measure");
    assert.equal(none.pooled.inView, none.pooled.evidence);
    assert.equal(none.pooled.historyTokens > 0, true);
    for (const other of others) {
      assert.ok(other.pooled.firstViewTokens <= none.pooled.firstViewTokens, other.policy);
      if (other.pooled.recoveryTokens === 0) assert.ok(other.pooled.historyTokens <= none.pooled.historyTokens, other.policy);
      const saves = ["claude-code", "gemini-cli", "opencode"].includes(other.policy);
      assert.equal(other.pooled.reachable, saves ? other.pooled.evidence : other.pooled.inView, other.policy);
    }
    const seed = report.policies.find((policy) => policy.policy === "seed-rule");
    assert.ok(seed !== undefined && seed.pooled.cutOutputs > 0, "the seed rule cuts some outputs over 8,000 characters");
    assert.ok(seed.pooled.historyTokens < none.pooled.historyTokens);
  });
});
