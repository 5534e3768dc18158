import type { BacktestFinding } from "./backtest-finding.js";

/** What one configuration's reviewer did on one PR: every finding with its placement, and what it cost. */
export interface PrReviewResult {
  prId: string;
  /** The heads reviewed (1 without a replay). */
  pushes: number;
  /** The PR's base and the heads reviewed, in order: a stored result is reused only for the same commits. */
  baseSha: string;
  heads: string[];
  /** Reviews the app would have posted. */
  reviews: number;
  findings: BacktestFinding[];
  /** The check run's conclusion on the last head (success, failure, neutral), when there was one. */
  conclusion?: string;
  /** Set when the app skipped the PR (its config said so): the reason, and nothing was reviewed. */
  skipped?: string;
  turns: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  wallMs: number;
}
