/** One metric of two configurations on the same PRs: each value, B − A, and a 95% bootstrap interval of B − A. */
export interface MetricDifference {
  metric: "precision" | "recall" | "f1" | "findingsPerPr" | "costPerPr" | "wallMsPerPr";
  a: number | null;
  b: number | null;
  difference: number | null;
  /** The resamples on which both values were defined: what the interval is made of. */
  resamples: number;
  /** 2.5th and 97.5th percentiles of the resampled differences; null when too few resamples had a value. */
  low: number | null;
  high: number | null;
}
