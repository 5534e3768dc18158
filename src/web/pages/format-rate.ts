/** A share as a whole percentage: `33%`; `–` when there is nothing to divide by. */
export function formatRate(rate: number | null): string {
  return rate === null ? "–" : `${Math.round(rate * 100)}%`;
}
