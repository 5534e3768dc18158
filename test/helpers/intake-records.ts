import type { PullRequestRecord } from "../../src/intake/intake-record.js";

/**
 * The intake record the pull request handler makes of a push (`synchronize`) by octocat to a PR of
 * octo/widgets (repository 4242): `run` names the PR and its head, and overrides any other field.
 */
export function pullRequestRecord(
  deliveryId: string,
  run: Pick<PullRequestRecord["run"], "prNumber" | "headSha"> & Partial<PullRequestRecord["run"]>,
): PullRequestRecord {
  return {
    kind: "pull_request",
    deliveryId,
    action: "synchronize",
    sender: { login: "octocat", type: "User" },
    run: {
      installationId: 1,
      repositoryId: 4242,
      repositoryFullName: "octo/widgets",
      cloneUrl: "https://github.com/octo/widgets.git",
      title: "Change",
      body: "",
      authorLogin: "octocat",
      authorType: "User",
      baseRef: "main",
      baseSha: "b".repeat(40),
      headRef: "f",
      headRepoFullName: "octo/widgets",
      headCloneUrl: "https://github.com/octo/widgets.git",
      maintainerCanModify: false,
      draft: false,
      labels: [],
      prUpdatedAt: null,
      ...run,
    },
  };
}
