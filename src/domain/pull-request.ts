/**
 * A pull request as GitHub describes it, in the words the app uses: the fields a run keeps, read by one
 * mapper from either place GitHub sends them (a webhook's `pull_request`, or `GET /pulls/{n}`; both use
 * the same JSON names).
 */
export interface PullRequestInfo {
  number: number;
  title: string;
  body: string;
  authorLogin: string;
  /** The author's account type: `User`, `Bot` (an app, e.g. Dependabot), `Organization`; empty when GitHub did not say. */
  authorType: string;
  state: string;
  draft: boolean;
  baseRef: string;
  baseSha: string;
  headRef: string;
  headSha: string;
  /** Null when the head repository is gone (a deleted fork). */
  headRepoFullName: string | null;
  headCloneUrl: string | null;
  maintainerCanModify: boolean;
  /** ISO time of GitHub's `updated_at` (kept as text: a JSON journal line keeps no Date). */
  updatedAt: string | null;
  /** The names of the PR's labels (`ignore.labels` keeps a labelled PR from automatic review). */
  labels: string[];
}

/** The subset of GitHub's pull request JSON (webhook payload or REST response) the mapper reads. */
export interface GitHubPullRequestJson {
  number: number;
  title: string;
  body?: string | null;
  user?: { login: string; type?: string | null } | null;
  state: string;
  draft?: boolean | null;
  base: { ref: string; sha: string };
  head: { ref: string; sha: string; repo?: { full_name: string; clone_url: string } | null };
  maintainer_can_modify?: boolean | null;
  updated_at?: string | null;
  labels?: { name: string }[] | null;
}

/** GitHub's pull request JSON → the app's fields (missing optional fields read as GitHub means them). */
export function readPullRequest(pr: GitHubPullRequestJson): PullRequestInfo {
  return {
    number: pr.number,
    title: pr.title,
    body: pr.body ?? "",
    authorLogin: pr.user?.login ?? "",
    authorType: pr.user?.type ?? "",
    state: pr.state,
    draft: pr.draft ?? false,
    baseRef: pr.base.ref,
    baseSha: pr.base.sha,
    headRef: pr.head.ref,
    headSha: pr.head.sha,
    headRepoFullName: pr.head.repo?.full_name ?? null,
    headCloneUrl: pr.head.repo?.clone_url ?? null,
    maintainerCanModify: pr.maintainer_can_modify ?? false,
    updatedAt: pr.updated_at ?? null,
    labels: (pr.labels ?? []).map((l) => l.name),
  };
}

/** Where a pull request lives: the installation and the base repository. */
export interface RepositoryFields {
  installationId: number;
  repositoryId: number;
  repositoryFullName: string;
  cloneUrl: string;
}

/** GitHub's repository JSON (webhook payload) → where a pull request lives. */
export function readRepository(
  installationId: number,
  repository: { id: number; full_name: string; clone_url: string },
): RepositoryFields {
  return {
    installationId,
    repositoryId: repository.id,
    repositoryFullName: repository.full_name,
    cloneUrl: repository.clone_url,
  };
}

/** What a pull request says about its run (the `runs` columns a webhook or a read of the PR may set). */
export type PullRequestRunFields = RepositoryFields &
  Omit<PullRequestInfo, "number" | "state" | "updatedAt"> & {
    prNumber: number;
    /** ISO time: the PR's `updated_at`. */
    prUpdatedAt: string | null;
  };

/** The run's fields for a pull request of a repository. */
export function runFields(repository: RepositoryFields, pr: PullRequestInfo): PullRequestRunFields {
  return {
    installationId: repository.installationId,
    repositoryId: repository.repositoryId,
    repositoryFullName: repository.repositoryFullName,
    cloneUrl: repository.cloneUrl,
    prNumber: pr.number,
    title: pr.title,
    body: pr.body,
    authorLogin: pr.authorLogin,
    authorType: pr.authorType,
    baseRef: pr.baseRef,
    baseSha: pr.baseSha,
    headRef: pr.headRef,
    headSha: pr.headSha,
    headRepoFullName: pr.headRepoFullName,
    headCloneUrl: pr.headCloneUrl,
    maintainerCanModify: pr.maintainerCanModify,
    draft: pr.draft,
    labels: pr.labels,
    prUpdatedAt: pr.updatedAt,
  };
}
