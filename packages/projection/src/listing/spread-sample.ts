/**
 * Positions of [0, `total`) spread over it to sample: every ⌊total / most⌋th from 0 (each one when
 * `total` < 2·`most`), so about `most` of them — never more than twice that. Pure.
 */
export function spreadSample(total: number, most: number): number[] {
  const step = Math.max(1, Math.floor(total / most));
  const positions: number[] = [];
  for (let position = 0; position < total; position += step) positions.push(position);
  return positions;
}
