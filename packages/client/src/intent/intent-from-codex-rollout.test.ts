import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { intentFromCodexRollout } from "./intent-from-codex-rollout.js";

// Lines in the shape Codex 0.169 writes its rollout (`transcript_path`), trimmed to the fields read.
const item = (payload: Record<string, unknown>): string => JSON.stringify({ timestamp: "2026-12-04T20:04:43.136Z", type: "response_item", payload });
const user = (text: string): string => item({ type: "message", role: "user", content: [{ type: "input_text", text }] });
const said = (text: string): string => item({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const call = (id: string, cmd: string): string => item({ type: "function_call", name: "exec_command", arguments: JSON.stringify({ cmd }), call_id: id });
const output = (id: string): string => item({ type: "function_call_output", call_id: id, output: "Process exited with code 0\nOutput:\n…" });

const ROLLOUT = [
  JSON.stringify({ type: "session_meta", payload: { id: "s1", cwd: "/w" } }),
  item({ type: "message", role: "developer", content: [{ type: "input_text", text: "<skills_instructions>\n…\n</skills_instructions>" }] }),
  user("<environment_context>\n  <cwd>/w</cwd>\n  <shell>bash</shell>\n</environment_context>"),
  JSON.stringify({ type: "event_msg", payload: { type: "task_started" } }),
  user("Fix the crash in resolve_lookup_table"),
  item({ type: "reasoning", summary: [{ type: "summary_text", text: "The table is built in lookup.py." }], encrypted_content: "…" }),
  said("Let me read lookup.py first."),
  call("call_1", "cat lookup.py"),
  output("call_1"),
  said("The failure is in zebra_quota; let me run its test."),
  call("call_2", "pytest -k zebra_quota"),
  call("call_3", "grep -n zebra_quota -r ."),
  output("call_2"),
].join("\n");

// The rollout's model turns as earlier messages: the model's words and calls, not the calls' output.
const EARLIER_1 = "The table is built in lookup.py.\nLet me read lookup.py first.\n[exec_command] cat lookup.py";
const EARLIER_2 = "The failure is in zebra_quota; let me run its test.\n[exec_command] pytest -k zebra_quota\n[exec_command] grep -n zebra_quota -r .";

describe("intentFromCodexRollout()", () => {
  it("is the earlier turns with their calls, the task (not Codex's own context), and what the model said and summarised before the call", () => {
    assert.equal(
      intentFromCodexRollout(ROLLOUT, ROLLOUT, "call_1"),
      "Fix the crash in resolve_lookup_table\n\nThe table is built in lookup.py.\nLet me read lookup.py first.",
    );
    assert.equal(
      intentFromCodexRollout(ROLLOUT, ROLLOUT, "call_2"),
      `${EARLIER_1}\n\nFix the crash in resolve_lookup_table\n\nThe failure is in zebra_quota; let me run its test.`,
    );
    // A call made beside another in the same turn has the same asking text.
    assert.equal(intentFromCodexRollout(ROLLOUT, ROLLOUT, "call_3"), intentFromCodexRollout(ROLLOUT, ROLLOUT, "call_2"));
  });

  it("carries the earlier calls' arguments (function calls and freeform tool calls), oldest first, never a tool's output", () => {
    const rollout = [
      ROLLOUT,
      said("The lookup is in django/x.py."),
      call("call_4", "sed -n 398,500p django/x.py"),
      item({
        type: "custom_tool_call",
        status: "completed",
        call_id: "call_5",
        name: "apply_patch",
        input: "*** Begin Patch\n*** Update File: django/x.py\n*** End Patch\n",
      }),
      output("call_3"),
      output("call_4"),
      item({ type: "custom_tool_call_output", call_id: "call_5", output: "Success. Updated the following files:\nM django/x.py" }),
      user("Also check the docs."),
      said("Checking the docs now."),
      call("call_6", "rg -n zebra_quota docs"),
    ].join("\n");
    const intent = intentFromCodexRollout(rollout, rollout, "call_6");
    assert.equal(
      intent,
      [
        EARLIER_1,
        EARLIER_2,
        "The lookup is in django/x.py.\n[exec_command] sed -n 398,500p django/x.py\n[apply_patch] *** Begin Patch\n*** Update File: django/x.py\n*** End Patch",
        "Fix the crash in resolve_lookup_table",
        "Checking the docs now.",
      ].join("\n\n"),
    );
    assert.ok(intent.endsWith("\n\nChecking the docs now."));
    assert.ok(!intent.includes("Process exited") && !intent.includes("Success. Updated"), "tool output is not the agent's words");
    assert.ok(!intent.includes("Also check the docs."), "a later user message is not the agent's words");
    // A freeform tool call is found by its call id too.
    assert.equal(
      intentFromCodexRollout(rollout, rollout, "call_5"),
      `${EARLIER_1}\n\n${EARLIER_2}\n\nFix the crash in resolve_lookup_table\n\nThe lookup is in django/x.py.`,
    );
  });

  it('reads the task from the head and the call and earlier turns from the tail; a call not found gets what was said last; nothing gives ""', () => {
    const lines = ROLLOUT.split("\n");
    const head = lines.slice(0, 6).join("\n");
    const tail = `ut":"cut at a read boundary"}}\n${lines.slice(9).join("\n")}`;
    assert.equal(intentFromCodexRollout(head, tail, "call_2"), "Fix the crash in resolve_lookup_table\n\nThe failure is in zebra_quota; let me run its test.");
    assert.equal(
      intentFromCodexRollout(ROLLOUT, `${ROLLOUT}\n${said("Now the docs.")}`, "call_9"),
      `${EARLIER_1}\n\n${EARLIER_2}\n\nFix the crash in resolve_lookup_table\n\nNow the docs.`,
    );
    assert.equal(intentFromCodexRollout("", "", "call_1"), "");
    assert.equal(intentFromCodexRollout("not json", "{}", "call_1"), "");
  });
});
