/** A finding counted as one real issue of its PR. */
export interface PrMatch {
  /** The finding's id (`NM-3`). */
  finding: string;
  /** The real issue's index in the golden file's PR. */
  issue: number;
  /** What decided it: the judge's confidence, or 1 / (1 + lines apart). */
  score: number;
  by: "judge" | "location";
  reason: string;
}
