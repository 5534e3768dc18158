import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GitHubError } from "../../src/github/github-error.js";
import { OctokitGitHubClient } from "../../src/github/octokit-github-client.js";

/** With @octokit/plugin-retry ON (as in production): a creating POST is sent once, a read is still retried. */

const ref = { owner: "o", repo: "r" };

function client() {
  // retry enabled, with a 1 ms base so a retried read does not wait seconds
  const octokit = new ProbotOctokit({ throttle: { enabled: false }, retry: { retryAfterBaseValue: 1 } } as never);
  return new OctokitGitHubClient(octokit, async () => "no-mistakes");
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

describe("creating POSTs are never re-sent by the HTTP layer", () => {
  const creating: [string, string, (c: OctokitGitHubClient) => Promise<unknown>][] = [
    [
      "review",
      "/repos/o/r/pulls/7/reviews",
      (c) => c.createReview(ref, 7, { commitId: "a".repeat(40), body: "b", comments: [] }),
    ],
    ["issue comment", "/repos/o/r/issues/7/comments", (c) => c.createIssueComment(ref, 7, "hi")],
    [
      "review-comment reply",
      "/repos/o/r/pulls/7/comments/5/replies",
      (c) => c.replyToReviewComment(ref, 7, 5, "Resolved in abc."),
    ],
    [
      "check run",
      "/repos/o/r/check-runs",
      (c) => c.createCheckRun(ref, "a".repeat(40), "no-mistakes", { status: "in_progress" }),
    ],
  ];
  for (const [what, path, write] of creating) {
    it(`${what}: a 502 surfaces as a server error after ONE request`, async () => {
      let hits = 0;
      nock("https://api.github.com")
        .post(path)
        .times(4)
        .reply(() => {
          hits++;
          return [502, { message: "Bad Gateway" }];
        });
      const error = await write(client()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GitHubError);
      expect((error as GitHubError).kind).toBe("server");
      expect(hits).toBe(1);
    });
  }

  it("a read is still retried on a 502", async () => {
    let hits = 0;
    nock("https://api.github.com")
      .get("/repos/o/r/pulls/7")
      .times(2)
      .reply(() =>
        ++hits === 1
          ? [502, { message: "Bad Gateway" }]
          : [
              200,
              {
                number: 7,
                title: "t",
                body: null,
                user: { login: "u" },
                state: "open",
                draft: false,
                base: { ref: "main", sha: "b" },
                head: { ref: "f", sha: "h", repo: null },
              },
            ],
      );
    const pr = await client().getPullRequest(ref, 7);
    expect(pr.number).toBe(7);
    expect(hits).toBe(2);
  });
});
