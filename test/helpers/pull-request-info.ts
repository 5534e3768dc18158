import type { PullRequestInfo } from "../../src/domain/pull-request.js";

/** A same-repository PR of octo-org/widgets as GitHub reports it, with `over` laid on top. */
export function pullRequestInfo(over: Partial<PullRequestInfo> = {}): PullRequestInfo {
  return {
    number: 7,
    title: "t",
    body: "",
    authorLogin: "dev",
    authorType: "User",
    state: "open",
    draft: false,
    baseRef: "main",
    baseSha: "a".repeat(40),
    headRef: "feature",
    headSha: "b".repeat(40),
    headRepoFullName: "octo-org/widgets",
    headCloneUrl: "https://github.com/octo-org/widgets.git",
    maintainerCanModify: false,
    updatedAt: null,
    labels: [],
    ...over,
  };
}
