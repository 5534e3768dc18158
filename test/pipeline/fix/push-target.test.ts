import { describe, expect, it } from "vitest";
import type { PullRequestInfo } from "../../../src/domain/pull-request.js";
import { isWorkflowPath, pushTarget } from "../../../src/pipeline/fix/push-target.js";
import { pullRequestInfo } from "../../helpers/pull-request-info.js";

const BASE = "octo-org/widgets";
const pr = (over: Partial<PullRequestInfo>): PullRequestInfo => pullRequestInfo({ headRepoFullName: BASE, ...over });

describe("pushTarget: where a fix may go, from the PR as GitHub reports it now", () => {
  it.each([
    [
      "same repository",
      pr({}),
      { cloneUrl: "https://github.com/octo-org/widgets.git", branch: "feature", repoFullName: BASE },
    ],
    [
      "fork with maintainer edits",
      pr({
        headRepoFullName: "forker/widgets",
        headCloneUrl: "https://github.com/forker/widgets.git",
        maintainerCanModify: true,
      }),
      { cloneUrl: "https://github.com/forker/widgets.git", branch: "feature", repoFullName: "forker/widgets" },
    ],
    [
      "fork without maintainer edits",
      pr({ headRepoFullName: "forker/widgets", headCloneUrl: "https://github.com/forker/widgets.git" }),
      { refusal: expect.stringContaining("does not allow edits by maintainers") },
    ],
    [
      "deleted fork (head.repo null), branch named like the base's",
      pr({ headRepoFullName: null, headCloneUrl: null, headRef: "main" }),
      { refusal: expect.stringContaining("the fork was deleted") },
    ],
    [
      "deleted fork with maintainer edits once allowed",
      pr({ headRepoFullName: null, headCloneUrl: null, maintainerCanModify: true }),
      { refusal: expect.stringContaining("the fork was deleted") },
    ],
    ["closed", pr({ state: "closed" }), { refusal: expect.stringContaining("closed") }],
  ])("%s", (_name, info, expected) => {
    expect(pushTarget(info, BASE)).toEqual(expected);
  });

  it("recognises workflow files", () => {
    expect(isWorkflowPath(".github/workflows/ci.yml")).toBe(true);
    expect(isWorkflowPath(".GitHub/Workflows/x.yaml")).toBe(true);
    expect(isWorkflowPath(".github/dependabot.yml")).toBe(false);
    expect(isWorkflowPath("src/.github/workflows/ci.yml")).toBe(false);
  });
});
