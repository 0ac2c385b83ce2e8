import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderTurnText } from "./render-turn-text.js";

describe("renderTurnText()", () => {
  it("renders the address, parts, calls and results", () => {
    const text = renderTurnText({
      seq: 12,
      role: "assistant",
      parts: [
        { type: "text", text: "running the tests" },
        { type: "media", mimeType: "image/png", name: "shot.png" },
      ],
      toolCalls: [
        { toolUseId: "t1", name: "Bash", argsJson: '{"command":"npm test"}' },
        { toolUseId: "t2", name: "Read", argsJson: "" },
      ],
      toolResults: [],
      tokenCount: 9,
    });
    assert.equal(text, 'turn:12 assistant\nrunning the tests\n[media image/png shot.png]\n→ Bash {"command":"npm test"}\n→ Read');
  });

  it("marks errors and exit codes of results", () => {
    const text = renderTurnText({
      seq: 13,
      role: "user",
      parts: [{ type: "json", json: '{"ok":false}' }],
      toolCalls: [],
      toolResults: [
        { toolUseId: "t1", toolName: "Bash", parts: [{ type: "text", text: "1 failing" }], isError: true, exitCode: 1 },
        { toolUseId: "t2", toolName: "Read", parts: [{ type: "text", text: "file body" }], isError: false },
      ],
      tokenCount: 9,
    });
    assert.equal(text, 'turn:13 user\n{"ok":false}\n← Bash [error] [exit 1]\n1 failing\n← Read\nfile body');
  });
});
