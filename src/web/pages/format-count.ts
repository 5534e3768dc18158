const FORMAT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A whole count (tokens, turns) with thousands separators: `1,234,567`. */
export function formatCount(n: number): string {
  return FORMAT.format(n);
}
