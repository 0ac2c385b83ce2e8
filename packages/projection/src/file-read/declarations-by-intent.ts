import type { Declaration } from "./declaration-map.js";

/**
 * The declarations whose span holds lines the intent points at, the most pointed at first — for a map that
 * cannot name every omitted declaration, the ones the agent is likelier to go to next. A declaration's span
 * runs from its line to the next declaration at its level or further out (a class holds its methods, a
 * method ends where the next one starts); its weight is the sum of the scores (IntentMatches.scores) of the
 * matched lines in it. Declarations with no matched line are left out; ties go to the earlier one. Pure and
 * deterministic: O((D + S) log S) for D declarations and S scored lines.
 */
export function declarationsByIntent(declarations: readonly Declaration[], scores: ReadonlyMap<number, number>, lineCount: number): Declaration[] {
  if (declarations.length === 0 || scores.size === 0) return [];
  const lines = [...scores.keys()].sort((a, b) => a - b);
  // sums[i]: the scores of lines[0..i), added in line order (the same sums on every run).
  const sums = new Float64Array(lines.length + 1);
  lines.forEach((line, index) => (sums[index + 1] = (sums[index] ?? 0) + (scores.get(line) ?? 0)));
  const before = (line: number): number => {
    let low = 0;
    let high = lines.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((lines[middle] ?? 0) < line) low = middle + 1;
      else high = middle;
    }
    return sums[low] ?? 0;
  };
  const weighed: { declaration: Declaration; weight: number }[] = [];
  // From the last declaration back: the stack holds those after this one that no later one at their level or
  // further out hides, so its top, once deeper ones are popped, is where this one's span ends.
  const after: Declaration[] = [];
  for (let index = declarations.length - 1; index >= 0; index--) {
    const declaration = declarations[index];
    if (declaration === undefined) continue;
    while (after.length > 0 && (after[after.length - 1]?.level ?? 0) > declaration.level) after.pop();
    const end = after[after.length - 1]?.index ?? lineCount;
    const weight = before(end) - before(declaration.index);
    if (weight > 0) weighed.push({ declaration, weight });
    after.push(declaration);
  }
  return weighed.sort((a, b) => b.weight - a.weight || a.declaration.index - b.declaration.index).map(({ declaration }) => declaration);
}
