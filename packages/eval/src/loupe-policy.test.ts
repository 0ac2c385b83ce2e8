import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LoupeClient } from "@loupe/client";
import { isAppError } from "@loupe/errors";
import type { ProjectResponse, RecoverResponse } from "@loupe/proto";
import { corpusRowFrom } from "./corpus-row.js";
import { createLoupePolicy } from "./loupe-policy.js";

const rowFields = {
  agent_system: "a",
  trajectory_id: "t1",
  step: 3,
  tool: "bash",
  args: { command: "ls" },
  output: "x\n".repeat(10),
  next_action: "next",
};
const row = corpusRowFrom(rowFields)!;
const text = (value: string) => [{ content: { case: "text" as const, value } }];

/** A client answering Project with `answer` (the fields the policy reads; the two calls it makes, no others). */
function clientAnswering(answer: Pick<ProjectResponse, "resultId" | "archived"> & { parts: ReturnType<typeof text> }): LoupeClient {
  const recovered = { resultId: "r_1", parts: text("x"), matchCount: 1 };
  return {
    project: () => Promise.resolve(answer as unknown as ProjectResponse),
    recover: () => Promise.resolve(recovered as unknown as RecoverResponse),
  } as Partial<LoupeClient> as LoupeClient;
}

describe("the loupe policy", () => {
  it("names the model in its request: none by default, a name, or with model=recorded each call's recorded one", async () => {
    const sent: unknown[] = [];
    const client = {
      project: (request: { model?: string }) => {
        sent.push(request.model);
        return Promise.resolve({ resultId: "", archived: true, parts: text(row.output) } as unknown as ProjectResponse);
      },
    } as Partial<LoupeClient> as LoupeClient;
    const recorded = corpusRowFrom({ ...JSON.parse(JSON.stringify(rowFields)), model: "openai/gpt-5-mini" })!;
    assert.equal(recorded.model, "openai/gpt-5-mini");
    await createLoupePolicy(client).view(recorded, "s");
    await createLoupePolicy(client, { model: "gpt-4o" }).view(recorded, "s");
    const policy = createLoupePolicy(client, { intent: true, model: "recorded" });
    await policy.view(recorded, "s");
    await policy.view(row, "s");
    assert.deepEqual(sent, ["", "gpt-4o", "openai/gpt-5-mini", ""]);
    assert.equal(policy.name, "loupe:intent=on,model=recorded");
  });

  it("scores the first view of a saved result, with a recovery of it", async () => {
    const view = await createLoupePolicy(clientAnswering({ resultId: "r_1", archived: true, parts: text("x\n[loupe] lines omitted") })).view(row, "s");
    assert.equal(view.saved, true);
    assert.equal(view.firstView, "x\n[loupe] lines omitted");
    assert.deepEqual(await view.recover?.("x"), { found: true, answer: "x" });
  });

  it("takes a result that fits as unsaved, its whole text in view", async () => {
    const view = await createLoupePolicy(clientAnswering({ resultId: "", archived: true, parts: text(row.output) })).view(row, "s");
    assert.deepEqual(view, { firstView: row.output, saved: false });
  });

  it("refuses to score a fail-open answer (the save failed): it is not the view Loupe gives", async () => {
    const policy = createLoupePolicy(clientAnswering({ resultId: "", archived: false, parts: text(row.output) }));
    await assert.rejects(
      policy.view(row, "s"),
      (error) => isAppError(error) && error.code === "unavailable" && /fail-open.*trajectory=t1, step=3/.test(error.message),
    );
  });
});
