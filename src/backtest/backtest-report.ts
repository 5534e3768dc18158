import type { BacktestFinding } from "./replay/backtest-finding.js";
import type { ConfigurationSummary } from "./score/configuration-summary.js";
import type { MetricDifference } from "./score/metric-difference.js";
import type { ScoredPr } from "./score/scored-pr.js";

/** Everything a backtest found, as written to report.json (and, a row per PR and configuration, report.csv). */
export interface BacktestReport {
  repo: string;
  golden?: string;
  /** How findings were matched to real issues. */
  matching: "judge" | "location" | "none";
  /** The PRs selected (each reviewed by every configuration, unless the run stopped first). */
  prs: { id: string; title: string; baseSha: string; headSha: string; pushes: number; golden?: number }[];
  /** PRs a golden or pairs file names that the clone does not have. */
  missing: string[];
  /** PRs a golden or pairs file names by another repository's URL than the clone's: skipped. */
  otherRepository: string[];
  /** Golden PRs the file itself flags (`az_comment`), each with its flag: skipped, not scored. */
  flagged: string[];
  /** PRs found in the history that the golden file does not name (not run). */
  withoutGolden: number;
  /** What makes the scores less than they seem (PRs looked up by number alone, issues location matching cannot reach). */
  warnings: string[];
  configurations: {
    label: string;
    describe: string;
    summary: ConfigurationSummary;
    prs: (ScoredPr & { findings: BacktestFinding[] })[];
    /** PRs whose review or judging failed (not scored; a rerun tries them again). */
    failures: { prId: string; error: string }[];
  }[];
  /** With two configurations: B − A on the PRs both finished. */
  comparison?: { a: string; b: string; prs: number; resamples: number; seed: number; metrics: MetricDifference[] };
  /** Why the backtest stopped before the end (the spend cap, an interruption). */
  stopped?: string;
  spentUsd: number;
  judge?: { asked: number; cached: number; costUsd: number };
}
