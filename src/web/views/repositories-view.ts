/** One repository on the signed-in person's home page. */
export interface RepositorySummary {
  repositoryId: number;
  fullName: string;
  /** Open PRs with at least one open finding. */
  openPullRequestsWithFindings: number;
  openPullRequests: number;
  openFindings: number;
  /** Spend of every turn started in the last 7 and 30 days, in USD. */
  spendWeekUsd: number;
  spendMonthUsd: number;
  /** The newest turn's start or run update, whichever is later. */
  lastActivityAt: Date | null;
}

/** The home page: the repositories the person can read that the app has runs for. */
export interface RepositoriesView {
  repositories: RepositorySummary[];
}
