/** Spend in US dollars to a hundredth of a cent: `$0.0123`. */
export function formatUsd(usd: number): string {
  return `$${(Number.isFinite(usd) ? usd : 0).toFixed(4)}`;
}
