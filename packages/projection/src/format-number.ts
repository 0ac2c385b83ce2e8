/** Formats a whole number with "," thousands separators (locale-independent, so views are deterministic). */
export function formatNumber(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Formats a line number as an address: plain digits, as a line-numbered gutter, `sed -n`, an editor and a
 * continuation's `start_line` write it (and fewer tokens than with separators). Counts keep formatNumber.
 */
export function formatLine(value: number): string {
  return String(Math.trunc(value));
}
