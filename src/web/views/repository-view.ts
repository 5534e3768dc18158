export type PullRequestState = "open" | "closed" | "paused";

export interface RepositoryFilter {
  /** "all" lists every state. */
  state: PullRequestState | "all";
  /** A login, matched exactly (case-insensitive); undefined lists everyone's. */
  author?: string;
  /** 1-based. */
  page: number;
}

/** One PR of a repository's page. */
export interface PullRequestRow {
  number: number;
  title: string;
  author: string;
  state: PullRequestState;
  draft: boolean;
  openFindings: { error: number; warning: number; info: number };
  headSha: string;
  lastReviewedSha: string | null;
  turns: number;
  spendUsd: number;
  updatedAt: Date;
}

/** A repository's page: its PRs, newest activity first, a page at a time. */
export interface RepositoryView {
  repositoryId: number;
  fullName: string;
  filter: RepositoryFilter;
  pullRequests: PullRequestRow[];
  /** PRs matching the filter, over all pages. */
  total: number;
  pageSize: number;
  /** Every author with a PR in the repository (for the filter), sorted. */
  authors: string[];
}
