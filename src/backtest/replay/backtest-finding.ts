/** One finding the reviewer reported on a backtested PR, and where the app placed it. */
export interface BacktestFinding {
  /** `NM-3`. */
  id: string;
  path: string | null;
  line: number | null;
  endLine: number | null;
  /** error | warning | info */
  severity: string;
  action: string;
  title: string;
  body: string;
  /** The ledger's status at the end of the PR (open, fixed, outdated, note, …). */
  status: string;
  /**
   * `inline` (a comment on the diff at path:line), `body` (in the review's body: off the diff, or past
   * review.max_comments), or `note` (kept in the summary, never posted: a later push's finding on code
   * that push did not touch).
   */
  placement: "inline" | "body" | "note";
  /**
   * What the app saw when it ran the reproducer the reviewer attached (the ledger's `reproduction`):
   * `reproduced`, `not-reproduced` or `broken`; absent when none ran (no reproducer, no checks configured).
   */
  reproduction?: string;
}
