import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { countCodePoints } from "./code-points.js";
import type { CutRule } from "./cut-rule.js";
import { cutHeadTail } from "./head-tail-cut.js";

const rule = (keepLimitChars: number, keepHeadChars: number, keepTailChars: number): CutRule => ({
  keepLimitChars,
  keepHeadChars,
  keepTailChars,
  keepTools: ["bash"],
});
const log = (lines: number, width = 30): string => Array.from({ length: lines }, (_, index) => `line ${String(index + 1)} `.padEnd(width, "x") + "\n").join("");
const NOTICE = /^\[loupe: (?:lines (\d[\d,]*)–(\d[\d,]*) of (\d[\d,]*) omitted \((\d[\d,]*) characters\)|(\d[\d,]*) characters omitted)(.*)\]$/;

describe("cutHeadTail(), versions 2 and 3 (whole lines)", () => {
  it("keeps whole lines at both ends and names the omitted lines of the original", () => {
    const text = log(5000);
    const { text: cut, cut: done, removedChars } = cutHeadTail(text, rule(8000, 3000, 3000));
    assert.equal(done, true);
    const lines = cut.split("\n");
    const notice = lines.findIndex((line) => line.startsWith("[loupe:"));
    const match = NOTICE.exec(lines[notice] ?? "");
    assert.ok(match, lines[notice]);
    const [first, last, total] = [match[1], match[2], match[3]].map((value) => Number(value?.replaceAll(",", "")));
    const original = text.split("\n");
    assert.equal(total, 5000);
    assert.deepEqual(lines.slice(0, notice), original.slice(0, first! - 1), "the head is the original's first lines, whole");
    assert.deepEqual(lines.slice(notice + 1), original.slice(last), "the tail is the original's last lines, whole");
    assert.equal(removedChars, original.slice(first! - 1, last).join("\n").length + 1);
    assert.ok(countCodePoints(cut) <= 8000);
  });

  it("cuts inside a line only when a line is longer than half the head or tail, with version 1's notice", () => {
    const text = "a".repeat(20_000);
    assert.equal(cutHeadTail(text, rule(8000, 3000, 3000)).text, cutHeadTail(text, rule(8000, 3000, 3000), 1).text);
  });

  it("is bounded by the limit, deterministic and idempotent, and keeps whole lines where lines are short", () => {
    const lineArbitrary = fc.string({ unit: fc.constantFrom("a", "b", " ", "é", "\u{1F600}", "…"), maxLength: 40 });
    fc.assert(
      fc.property(
        fc.array(lineArbitrary, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 500 }),
        (lines, head, tail, extra) => {
          const text = lines.join("\n");
          const cutRule = rule(head + tail + 200 + extra, head, tail);
          const result = cutHeadTail(text, cutRule);
          assert.deepEqual(cutHeadTail(text, cutRule), result, "deterministic");
          assert.deepEqual(cutHeadTail(result.text, cutRule), { text: result.text, cut: false, removedChars: 0 }, "idempotent");
          if (!result.cut) return;
          assert.ok(countCodePoints(result.text) <= cutRule.keepLimitChars, "within the limit");
          const kept = result.text.split("\n").filter((line) => !line.startsWith("[loupe:"));
          // Lines here are at most 40 code points: a cut inside a line would need a head or tail under 80.
          if (head >= 80 && tail >= 80) for (const line of kept) assert.ok(lines.includes(line), `kept line is an original line: ${JSON.stringify(line)}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps a runtime's own notice from the middle and says what the runtime had removed", () => {
    const codex = `Total output lines: 9000\n\n${log(300)}line 301 x…67,000 tokens truncated…line 8700 xx\n${log(300)}`;
    const cut = cutHeadTail(codex, rule(8000, 3000, 3000)).text;
    assert.ok(cut.startsWith("Total output lines: 9000\n"));
    assert.match(cut, /\[loupe: lines [\d,]+–[\d,]+ of 603 omitted \([\d,]+ characters\); the runtime had already removed about 67,000 tokens\]/);

    const gemini = `Output too large. Showing first 8,000 and last 32,000 characters. For full output see: /home/u/.gemini/tmp/p/tool-outputs/s/run.txt\n<untrusted_context>\nOutput: ${log(150)}\n... [318,967 characters omitted] ...\n\n${log(600)}Process Group PGID: 9\n</untrusted_context>`;
    const geminiCut = cutHeadTail(gemini, rule(8000, 3000, 3000)).text;
    assert.ok(geminiCut.includes("... [318,967 characters omitted] ...\n[loupe: lines"), "the runtime's marker line is kept before the notice");
    assert.match(
      geminiCut,
      /; the runtime had already removed 318,967 characters; the runtime saved the whole output to \/home\/u\/\.gemini\/tmp\/p\/tool-outputs\/s\/run\.txt\]/,
    );

    const opencode = `${log(1000)}\n...221858 bytes truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: /tmp/x/tool_1\nUse the Task tool to have explore agent process this file.\n`;
    assert.match(
      cutHeadTail(opencode, rule(8000, 3000, 3000)).text,
      /the runtime had already removed 221,858 bytes; the runtime saved the whole output to \/tmp\/x\/tool_1\]/,
    );
    const claude = `<persisted-output>\nOutput too large (595.7KB). Full output saved to: /h/.claude/projects/p/s/tool-results/b1.txt\n\nPreview (first 2KB):\n${log(600)}...\n</persisted-output>`;
    assert.match(
      cutHeadTail(claude, rule(8000, 3000, 3000)).text,
      /; the whole output was 609,997 bytes; the runtime saved the whole output to \/h\/\.claude\/projects\/p\/s\/tool-results\/b1\.txt\]/,
    );
  });

  it("version 3 also counts what Claude Code and Gemini CLI 0.61 removed, and names Gemini CLI's saved file", () => {
    // Claude Code 2.1, a failed command: head and tail of the output around its own marker line.
    const claude = `Exit code 1\n${log(160)}... [20,012 characters truncated] ...\n${log(160)}`;
    assert.match(
      cutHeadTail(claude, rule(8000, 3000, 3000)).text,
      /\n\.\.\. \[20,012 characters truncated\] \.\.\.\n\[loupe: lines [\d,]+–[\d,]+ of 322 omitted \([\d,]+ characters\); the runtime had already removed 20,012 characters\]\n/,
    );
    const path = "/home/u/.gemini/tmp/work/tool-outputs/session-1/run_shell_command__run_shell_command_1_0.txt";
    const gemini = `Output too large. Showing first 8,000 and last 32,000 characters. For full output see: ${path}\n<untrusted_context>\nOutput: ${log(260)}\n... [318,967 characters omitted] ...\n\n${log(1000)}</untrusted_context>`;
    const cut = cutHeadTail(gemini, rule(8000, 3000, 3000)).text;
    assert.ok(cut.startsWith(`Output too large. Showing first 8,000 and last 32,000 characters. For full output see: ${path}\n`));
    assert.match(cut, /; the runtime had already removed 318,967 characters; the runtime saved the whole output to \S+run_shell_command_1_0\.txt\]\n/);
  });

  it("version 4 names the saved original with the Recover call that reads it, within the limit; earlier versions never do", () => {
    const text = log(5000);
    const saved = cutHeadTail(text, rule(8000, 3000, 3000), 4, "r_abcdefghijklmnopqrstuvwxyz012345");
    const notice = saved.text.split("\n").find((line) => line.startsWith("[loupe:")) ?? "";
    assert.match(
      notice,
      /^\[loupe: lines 97–4,904 of 5,000 omitted \([\d,]+ characters\); whole output: recover \{"result_id":"r_abcdefghijklmnopqrstuvwxyz012345"\}\]$/,
    );
    assert.ok(countCodePoints(saved.text) <= 8000);
    assert.equal(cutHeadTail(saved.text, rule(8000, 3000, 3000), 4, "r_other").text, saved.text, "idempotent");
    // Without a saved original (the save failed), version 4 is version 3's bytes; version 3 ignores an id.
    assert.equal(cutHeadTail(text, rule(8000, 3000, 3000), 4).text, cutHeadTail(text, rule(8000, 3000, 3000), 3).text);
    assert.equal(cutHeadTail(text, rule(8000, 3000, 3000), 3, "r_x").text, cutHeadTail(text, rule(8000, 3000, 3000), 3).text);
    // No room for it: left out rather than over the limit.
    const tight = cutHeadTail(text, rule(6250, 3000, 3000), 4, "r_abcdefghijklmnopqrstuvwxyz012345");
    assert.ok(countCodePoints(tight.text) <= 6250);
  });

  it("version 2 keeps its bytes for the notices only version 3 knows", () => {
    const claude = `Exit code 1\n${log(160)}... [20,012 characters truncated] ...\n${log(160)}`;
    const v2 = cutHeadTail(claude, rule(8000, 3000, 3000), 2).text;
    assert.match(v2, /\[loupe: lines [\d,]+–[\d,]+ of 322 omitted \([\d,]+ characters\)\]\n/);
    assert.ok(!v2.includes("characters truncated] ...\n[loupe"));
    assert.notEqual(v2, cutHeadTail(claude, rule(8000, 3000, 3000), 3).text);
  });

  it("leaves out the optional parts of the notice rather than exceed the limit", () => {
    const path = "/very/long/" + "p".repeat(300);
    const text = `${log(200)}Full output saved to: ${path}\n${log(200)}`;
    const result = cutHeadTail(text, rule(1401, 600, 600));
    assert.ok(countCodePoints(result.text) <= 1401);
    assert.ok(!result.text.includes(path));
  });
});
