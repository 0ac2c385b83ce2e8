import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CorpusRow } from "./corpus-row.js";
import { fixtureRow } from "./testing/fixture-rows.js";
import {
  CLAUDE_CODE_OTHER_LIMIT_CHARS,
  CLAUDE_CODE_SHELL_LIMIT_CHARS,
  claudeCodePolicy,
  CODEX_LIMIT_CHARS,
  codexPolicy,
  GEMINI_LIMIT_CHARS,
  geminiCliPolicy,
  nonePolicy,
  OPENCODE_MAX_BYTES,
  OPENCODE_MAX_LINES,
  opencodePolicy,
} from "./vendor-policies.js";

function row(output: string, tool = "bash", args: unknown = { command: "cat big.log" }): CorpusRow {
  return fixtureRow(3, output, "", { agentSystem: "test", trajectoryId: "t", tool, args });
}

/** Numbered lines `L000001 …` of exactly `width` characters (newline included) until `chars` characters. */
function numbered(chars: number, width = 20): string {
  const lines: string[] = [];
  for (let index = 0; lines.length * width < chars; index++) lines.push(`L${String(index + 1).padStart(6, "0")}`.padEnd(width - 1, "."));
  return lines.join("\n") + "\n";
}

describe("vendor policies", () => {
  it("none returns the output unchanged and saves nothing", async () => {
    const text = numbered(100_000);
    assert.deepEqual(await nonePolicy.view(row(text), "s"), { firstView: text, saved: false });
  });

  it("codex keeps 40,000 characters or fewer whole, and cuts longer output 50/50 with a marker", async () => {
    const fits = "x".repeat(CODEX_LIMIT_CHARS);
    assert.equal((await codexPolicy.view(row(fits), "s")).firstView, fits);
    const text = numbered(100_000);
    const view = await codexPolicy.view(row(text), "s");
    assert.equal(view.saved, false);
    assert.equal(view.recover, undefined);
    const [header, rest = ""] = view.firstView.split("\n\n", 2);
    assert.equal(header, `Total output lines: ${String(text.split("\n").length)}`);
    const marker = /…(\d+) tokens truncated…/.exec(rest);
    assert.ok(marker);
    assert.equal(Number(marker[1]), Math.ceil((text.length - CODEX_LIMIT_CHARS) / 4));
    const head = rest.slice(0, marker.index);
    const tail = rest.slice(marker.index + marker[0].length);
    assert.equal(head, text.slice(0, 20_000));
    assert.equal(tail, text.slice(text.length - 20_000));
  });

  it("claude-code saves shell output over 30,000 characters and shows a 2 KB head preview and the path", async () => {
    const shellFits = "y".repeat(CLAUDE_CODE_SHELL_LIMIT_CHARS);
    assert.deepEqual(await claudeCodePolicy.view(row(shellFits), "s"), { firstView: shellFits, saved: false });
    const text = numbered(CLAUDE_CODE_SHELL_LIMIT_CHARS + 1000);
    const view = await claudeCodePolicy.view(row(text), "sess");
    assert.equal(view.saved, true);
    assert.match(view.firstView, /^Output too large \([\d.]+KB\)\. Full output saved to: \/tmp\/tool-output\/sess-3\.txt\n\nPreview \(first 2KB\):\n/);
    assert.ok(view.firstView.includes(text.slice(0, 2000)));
    assert.ok(!view.firstView.includes(text.slice(2000, 2040)), "nothing past the preview");
    const found = await view.recover?.("L001200");
    assert.deepEqual(found, { found: true, answer: `1200:${"L001200".padEnd(19, ".")}` });
  });

  it("claude-code allows other tools 50,000 characters", async () => {
    const text = "z".repeat(CLAUDE_CODE_OTHER_LIMIT_CHARS);
    assert.equal((await claudeCodePolicy.view(row(text, "str_replace_editor view", { command: "view" }), "s")).saved, false);
    assert.equal((await claudeCodePolicy.view(row(text + "z", "str_replace_editor view", { command: "view" }), "s")).saved, true);
    assert.equal((await claudeCodePolicy.view(row(text, "open", "open big.py"), "s")).saved, true, "SWE-agent commands are shell calls");
  });

  it("gemini-cli keeps 40,000 characters whole, and cuts longer output to 20% head and 80% tail of 40,000, saved", async () => {
    assert.equal((await geminiCliPolicy.view(row("g".repeat(GEMINI_LIMIT_CHARS)), "s")).saved, false);
    const text = numbered(120_000);
    const view = await geminiCliPolicy.view(row(text), "s");
    assert.equal(view.saved, true);
    const [before = "", after = ""] = view.firstView.split("\n... [CONTENT TRUNCATED] ...\n");
    assert.ok(before.endsWith(text.slice(0, 8_000)) && !before.endsWith(text.slice(0, 8_001)));
    assert.equal(after, text.slice(text.length - 32_000));
    assert.match(before, /saved to: \/tmp\/tool-output\/s-3\.txt/);
  });

  it("opencode keeps the head within 2,000 lines and 50 KB, and saves", async () => {
    const lines = Array.from({ length: OPENCODE_MAX_LINES }, (_, index) => `line ${String(index + 1)}`).join("\n");
    assert.equal((await opencodePolicy.view(row(lines), "s")).saved, false);
    const longer = lines + "\nline 2001\nline 2002";
    const view = await opencodePolicy.view(row(longer), "s");
    assert.equal(view.saved, true);
    assert.ok(view.firstView.startsWith(lines + "\n\n...2 lines truncated...\n\n"));
    const wide = numbered(OPENCODE_MAX_BYTES * 2, 100);
    const byBytes = await opencodePolicy.view(row(wide), "s");
    const kept = byBytes.firstView.split("\n\n...")[0] ?? "";
    assert.equal(kept, wide.slice(0, kept.length));
    assert.ok(kept.length <= OPENCODE_MAX_BYTES && kept.length > OPENCODE_MAX_BYTES - 100, "cut at the last whole line within 50 KB");
    assert.match(byBytes.firstView, /\.\.\.(\d+) lines truncated\.\.\./);
  });
});
