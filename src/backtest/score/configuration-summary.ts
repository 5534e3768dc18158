/** Precision, recall and F-score of a set of counts (prf): precision null when nothing was raised, recall and F1 null when there was no real issue. */
export interface Prf {
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

/** One configuration over the PRs it finished. */
export interface ConfigurationSummary extends Prf {
  label: string;
  prs: number;
  /** PRs the golden file names (the ones scored). */
  scoredPrs: number;
  raised: number;
  notes: number;
  golden: number;
  matchedFindings: number;
  matchedGolden: number;
  findingsPerPr: number | null;
  /** By the finding's severity: its precision. */
  precisionBySeverity: Record<string, { n: number; matched: number; precision: number | null }>;
  /** By the real issue's severity: its recall. */
  recallBySeverity: Record<string, { n: number; matched: number; recall: number | null }>;
  /**
   * The raised findings the app reproduced, and the rest (not reproduced, broken, or without a reproducer):
   * each side's precision over its own findings, and its recall over every real issue.
   */
  byReproduction: Record<
    "reproduced" | "unreproduced",
    { raised: number; matchedFindings: number; matchedGolden: number } & Prf
  >;
  costUsd: number;
  judgeCostUsd: number;
  costPerPr: number | null;
  wallMsPerPr: number | null;
}
