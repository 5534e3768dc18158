import type { PullRequestInfo } from "../../domain/pull-request.js";

/** Where a fix may be pushed: the PR's head repository and branch, as GitHub reports them now. */
export type PushTarget = { cloneUrl: string; branch: string; repoFullName: string } | { refusal: string };

/**
 * Decides from the PR as GitHub reports it (re-read, never the run's copy) whether a fix can be
 * pushed and where: only to the head repository and branch, and into a fork only when its owner
 * allows maintainer edits. A deleted fork (head repository null) is never mistaken for the base.
 */
export function pushTarget(pr: PullRequestInfo, baseFullName: string): PushTarget {
  if (pr.state !== "open") return { refusal: "this pull request is closed, so there is no branch to push a fix to." };
  if (pr.headRepoFullName === null || pr.headCloneUrl === null) {
    return {
      refusal:
        "the repository this pull request comes from no longer exists (the fork was deleted), so there is no branch to push a fix to.",
    };
  }
  if (pr.headRepoFullName !== baseFullName && !pr.maintainerCanModify) {
    return {
      refusal:
        'this pull request comes from a fork that does not allow edits by maintainers, so no-mistakes cannot push a fix to it. Tick "Allow edits by maintainers" on the PR, or apply the fixes yourself.',
    };
  }
  return { cloneUrl: pr.headCloneUrl, branch: pr.headRef, repoFullName: pr.headRepoFullName };
}

/** Paths under .github/workflows: GitHub refuses them from an App without the `workflows` permission, which no-mistakes does not ask for. */
export function isWorkflowPath(path: string): boolean {
  return /^\.github\/workflows\//i.test(path);
}
