/**
 * Adds to each scored line `weight` times the scores of the scored lines
 * within `radius` of it (its own excepted), from the scores as they were:
 * a line among other matches outranks a lone match of the same score. Pure.
 */
export function addNeighbourScores(scores: Map<number, number>, radius: number, weight: number): void {
  if (weight <= 0 || radius <= 0) return;
  const own = new Map(scores);
  for (const [line, score] of own) {
    let around = 0;
    for (let offset = -radius; offset <= radius; offset++) if (offset !== 0) around += own.get(line + offset) ?? 0;
    scores.set(line, score + weight * around);
  }
}
