import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { create } from "@bufbuild/protobuf";
import { createTokenCounter, cutHeadTail } from "@loupe/projection";
import { HistoryFormat, SourceLimitSchema } from "@loupe/proto";
import { createSourceRules } from "@loupe/rules";
import { createMemoryStateStore, stateKey } from "@loupe/state-store";
import { cutHistoryFor } from "./cut-history-handler.js";

const counter = createTokenCounter();
const long = Array.from({ length: 2000 }, (_, index) => `line ${String(index)} of a long build log\n`).join("");
const other = long.replaceAll("build", "test");
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const history = (text: string, tool = "bash") =>
  encode({
    model: "m",
    messages: [
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: tool, input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: text }] },
    ],
  });
const resultText = (bytes: Uint8Array | undefined) =>
  (JSON.parse(new TextDecoder().decode(bytes)) as { messages: Array<{ content: Array<{ content: string }> }> }).messages[1]!.content[0]!.content;
const rule = { keepLimitChars: 8000, keepHeadChars: 3000, keepTailChars: 3000, keepTools: ["bash"] };

async function setUp(limit: Record<string, unknown> = { keepLimitChars: 8000 }) {
  const state = createMemoryStateStore();
  const rules = createSourceRules(state);
  await rules.update("t", "app", create(SourceLimitSchema, limit));
  return { state, rules };
}

describe("cutHistoryFor(): pins keep a history's bytes", () => {
  it("a result pinned before cut version 2 (the rule version alone) is still cut as version 1 cut it; a new one gets whole lines", async () => {
    const { state, rules } = await setUp();
    // What earlier versions stored: the pin's key (tool name and text hashed) and the bare rule version.
    const identity = createHash("sha256").update(`bash\u0000${long}`).digest("base64url").slice(0, 32);
    await state.set(stateKey("t", "cut-pin", "app", identity), "1");
    const legacy = await cutHistoryFor({ source: "app", format: HistoryFormat.ANTHROPIC, historyJson: history(long) }, "t", rules, state, counter);
    assert.equal(resultText(legacy.historyJson), cutHeadTail(long, rule, 1).text);
    const fresh = await cutHistoryFor({ source: "app", format: HistoryFormat.ANTHROPIC, historyJson: history(other) }, "t", rules, state, counter);
    assert.equal(resultText(fresh.historyJson), cutHeadTail(other, rule, 2).text);
    assert.match(resultText(fresh.historyJson), /\n\[loupe: lines [\d,]+–[\d,]+ of 2,000 omitted/);
  });

  it("saves a result's whole text the first time it cuts it, names it in the notice, and never saves it again", async () => {
    const { state, rules } = await setUp();
    const saved: string[] = [];
    const savers = {
      state,
      nowMs: () => 0,
      saveImage: () => Promise.reject(new Error("no images here")),
      saveText: async ({ text }: { text: string }) => {
        saved.push(text);
        return "r_savedoriginal0123456789abcdefgh";
      },
    };
    const request = { source: "app", format: HistoryFormat.ANTHROPIC, historyJson: history(long) };
    const first = await cutHistoryFor(request, "t", rules, state, counter, undefined, savers);
    const second = await cutHistoryFor(request, "t", rules, state, counter, undefined, savers);
    assert.deepEqual(saved, [long], "saved once, the whole text");
    assert.deepEqual(second.historyJson, first.historyJson, "the same bytes on every request");
    assert.equal(resultText(first.historyJson), cutHeadTail(long, rule, 4, "r_savedoriginal0123456789abcdefgh").text);
    assert.match(resultText(first.historyJson), /; whole output: recover \{"result_id":"r_savedoriginal0123456789abcdefgh"\}\]/);
    // A save that fails: cut all the same, without a handle, and the same bytes after.
    const failing = { ...savers, saveText: () => Promise.reject(new Error("archive down")) };
    const unsaved = await cutHistoryFor({ ...request, historyJson: history(other) }, "t", rules, state, counter, undefined, failing);
    assert.equal(resultText(unsaved.historyJson), cutHeadTail(other, rule, 3).text);
    const again = await cutHistoryFor({ ...request, historyJson: history(other) }, "t", rules, state, counter, undefined, savers);
    assert.deepEqual(again.historyJson, unsaved.historyJson, "its pin has no saved original: never saved later");
    assert.deepEqual(saved, [long]);
  });

  it("a result first cut before version 4 keeps its bytes: no save, no handle", async () => {
    const { state, rules } = await setUp();
    const identity = createHash("sha256").update(`bash\u0000${long}`).digest("base64url").slice(0, 32);
    await state.set(stateKey("t", "cut-pin", "app", identity), JSON.stringify({ rule: 1, cut: 3 }));
    let saves = 0;
    const savers = { state, nowMs: () => 0, saveImage: () => Promise.reject(new Error("no")), saveText: async () => `r_${String(++saves)}` };
    const answer = await cutHistoryFor(
      { source: "app", format: HistoryFormat.ANTHROPIC, historyJson: history(long) },
      "t",
      rules,
      state,
      counter,
      undefined,
      savers,
    );
    assert.equal(resultText(answer.historyJson), cutHeadTail(long, rule, 3).text);
    assert.equal(saves, 0);
  });

  it("mode project: the first view is recorded with the pin and sent again without projecting again", async () => {
    const { state, rules } = await setUp({ keepLimitChars: 8000, mode: "project" });
    let calls = 0;
    const intents: string[] = [];
    const models: string[] = [];
    const projectText = async ({ text, intent, model }: { text: string; intent: string; model: string }) => {
      intents.push(intent);
      models.push(model);
      calls += 1;
      return `view ${String(calls)} of ${String(text.length)} characters`;
    };
    const first = await cutHistoryFor({ source: "app", format: HistoryFormat.ANTHROPIC, historyJson: history(long) }, "t", rules, state, counter, projectText);
    const second = await cutHistoryFor({ source: "app", format: HistoryFormat.ANTHROPIC, historyJson: history(long) }, "t", rules, state, counter, projectText);
    assert.equal(calls, 1);
    assert.deepEqual(intents, [""], "a history with no task or asking text has no intent");
    assert.deepEqual(models, ["m"], "the request's model sets the view's budget (its tokenizer, its margin)");
    assert.equal(resultText(second.historyJson), "view 1 of 50780 characters".replace("50780", String(long.length)));
    assert.deepEqual(second.historyJson, first.historyJson);
  });

  it("warns when keep_tools names none of the history's tools, and records them for the rule's GET", async () => {
    const { state, rules } = await setUp();
    const answer = await cutHistoryFor(
      { source: "app", format: HistoryFormat.ANTHROPIC, historyJson: history(long, "exec_command") },
      "t",
      rules,
      state,
      counter,
    );
    assert.equal(answer.cutResults, 0);
    assert.match(answer.warning ?? "", /^keep_tools \(bash, shell, execute\) names none of this app's tools \(exec_command\): nothing is cut/);
    const matched = await cutHistoryFor({ source: "app", format: HistoryFormat.ANTHROPIC, historyJson: history(long) }, "t", rules, state, counter);
    assert.equal(matched.warning, "");
    assert.deepEqual(JSON.parse((await state.get(stateKey("t", "recent-tools", "app"))) ?? "[]"), ["bash", "exec_command"]);
  });
});
