import type { PrMatch } from "./pr-match.js";
import type { Reproduction, ReproductionCount } from "./reproduction-count.js";

/** Counts of one severity: how many, and how many were matched. */
export interface SeverityCount {
  n: number;
  matched: number;
}

/** One configuration's result on one PR, scored against its real issues. */
export interface ScoredPr {
  prId: string;
  /** Findings raised (posted inline or in the review body): what precision is computed over. */
  raised: number;
  /** Findings kept as notes (never posted): not scored, shown beside. */
  notes: number;
  /** Real issues of the PR; undefined when the golden file does not name it (then it is not scored). */
  golden?: number;
  matchedFindings: number;
  matchedGolden: number;
  /** Raised findings by their own severity (error, warning, info): precision by severity. */
  byFindingSeverity: Record<string, SeverityCount>;
  /** Real issues by the golden file's severity: recall by severity. */
  byGoldenSeverity: Record<string, SeverityCount>;
  /** Raised findings the app reproduced, and the rest: precision and recall of each side. */
  byReproduction: Record<Reproduction, ReproductionCount>;
  matches: PrMatch[];
  /** The reviewer's spend on the PR (the judge's is counted apart). */
  costUsd: number;
  judgeCostUsd: number;
  wallMs: number;
  skipped?: string;
}
