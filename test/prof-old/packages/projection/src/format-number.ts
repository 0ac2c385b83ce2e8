/** Formats a whole number with "," thousands separators (locale-independent, so views are deterministic). */
export function formatNumber(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
