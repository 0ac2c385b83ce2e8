import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";
import { recoverOmission, textOf } from "../support/recover-omission.js";

// Fake secrets are assembled at run time, so no secret-shaped string sits in the repository.
const githubToken = ["ghp", "_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("");
const awsKeyId = ["AKIA", "IOSFODNN7", "EXAMPLE"].join("");

describe("secret redaction (on by default)", () => {
  let loupe: EmbeddedLoupe;
  let client: EmbeddedLoupe["client"];

  before(async () => {
    loupe = await startEmbeddedLoupe();
    client = loupe.client;
  });
  after(() => loupe.stop());

  it("masks secrets in the view and in the archive, and counts them", async () => {
    const lines = numberedLines(4000).split(/(?<=\n)/);
    lines.splice(2000, 0, `export GITHUB_TOKEN=${githubToken}\n`, `aws_access_key_id = ${awsKeyId}\n`);
    const text = lines.join("");
    const response = await client.project({ sessionId: "r", result: { toolName: "bash", parts: [{ content: { case: "text", value: text } }] } });
    assert.equal(response.redactedSecrets, 2);
    const everything = [textOf(response.parts)];
    for (const omission of response.omissions) everything.push((await recoverOmission(client, omission)).text);
    const all = everything.join("");
    assert.ok(!all.includes(githubToken) && !all.includes(awsKeyId), "no secret in the view or the saved result");
    assert.match(all, /\[REDACTED:[a-z-]+\]/);
  });

  it("masks secrets in a result that fits and comes back whole", async () => {
    const response = await client.project({
      sessionId: "r",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: `token: ${githubToken}\nok\n` } }] },
    });
    assert.equal(response.redactedSecrets, 1);
    assert.ok(!textOf(response.parts).includes(githubToken));
  });
});
