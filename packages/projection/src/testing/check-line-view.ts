import assert from "node:assert/strict";
import type { TextView } from "../head-tail-view.js";
import type { ResultView } from "../project-result.js";
import { splitLines } from "../split-lines.js";
import type { TokenCounter } from "../token-counter.js";

/**
 * Asserts the invariants of a line view against its original: within the
 * token budget and byte cap; omissions sorted, disjoint, inside the text, each
 * with a continuation naming exactly its lines; and the view plus the lines
 * its omissions name rebuild the original exactly (kept lines verbatim, one
 * notice line per omitted run, "[loupe" header lines first).
 */
export function checkLineView(
  original: string,
  view: TextView,
  options: { budgetTokens: number; maxViewBytes: number; counter: TokenCounter; resultId: string },
): void {
  assert.ok(
    options.counter.count(view.text) <= options.budgetTokens,
    `over budget: ${String(options.counter.count(view.text))} > ${String(options.budgetTokens)}`,
  );
  assert.ok(new TextEncoder().encode(view.text).byteLength <= options.maxViewBytes, "over the byte cap");
  if (view.unchanged) {
    assert.equal(view.text, original);
    return;
  }
  const lines = splitLines(original);
  const viewLines = splitLines(view.text);
  let previousEnd = 0;
  for (const omission of view.omissions) {
    assert.ok(
      omission.startLine > previousEnd && omission.endLine >= omission.startLine && omission.endLine <= lines.length,
      `omission ${String(omission.startLine)}–${String(omission.endLine)} out of order or range`,
    );
    previousEnd = omission.endLine;
    if (options.resultId !== "") {
      assert.deepEqual(JSON.parse(omission.continuationJson), { result_id: options.resultId, start_line: omission.startLine, end_line: omission.endLine });
    }
  }
  const covered = new Map(view.omissions.map((omission) => [omission.startLine, omission]));
  const keptCount = lines.length - view.omissions.reduce((sum, omission) => sum + omission.endLine - omission.startLine + 1, 0);
  const shown = keptCount + view.omissions.length;
  const headerCount = viewLines.length - shown;
  assert.ok(headerCount >= 0, "the view has fewer lines than its kept lines and notices");
  for (const header of viewLines.slice(0, headerCount)) assert.ok(header.startsWith("[loupe"), `header line is not a notice: ${header}`);
  let cursor = headerCount;
  let rebuilt = "";
  for (let line = 1; line <= lines.length;) {
    const omission = covered.get(line);
    if (omission) {
      rebuilt += lines.slice(omission.startLine - 1, omission.endLine).join("");
      const representation = viewLines[cursor] ?? "";
      if (omission.endLine > omission.startLine || representation.startsWith("[loupe"))
        assert.ok(representation.startsWith("[loupe"), `gap ${String(line)} has no notice line`);
      cursor++;
      line = omission.endLine + 1;
      continue;
    }
    const expected = lines[line - 1] ?? "";
    const actual = viewLines[cursor] ?? "";
    // The last kept line of the original may lack "\n" only at the end of the text.
    assert.equal(actual.replace(/\n$/, ""), expected.replace(/\n$/, ""), `kept line ${String(line)} is not verbatim`);
    rebuilt += expected;
    cursor++;
    line++;
  }
  assert.equal(rebuilt, original);
}

/** A line-based result view as {@link checkLineView} takes it (every omission a line range). */
export function lineViewOf(view: ResultView): TextView {
  const omissions = view.omissions.map((omission) => ({
    startLine: omission.startLine ?? 0,
    endLine: omission.endLine ?? 0,
    description: omission.description,
    continuationJson: omission.continuationJson,
  }));
  return { text: view.text, omissions, unchanged: view.unchanged };
}
