import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countGitHubRequests } from "../../src/metrics/count-github-requests.js";
import { GitHubError } from "../../src/github/github-error.js";
import { OctokitGitHubClient } from "../../src/github/octokit-github-client.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { sample } from "./sample.js";

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  const unused = nock.pendingMocks();
  nock.cleanAll();
  expect(unused).toEqual([]);
});
afterAll(() => nock.enableNetConnect());

const ref = { owner: "o", repo: "r" };
const pr = {
  number: 7,
  title: "t",
  body: null,
  user: { login: "u" },
  state: "open",
  draft: false,
  base: { ref: "main", sha: "b" },
  head: { ref: "f", sha: "h", repo: null },
};

describe("countGitHubRequests", () => {
  it("counts every request a client of the class makes, by method and final status", async () => {
    const metrics = new Metrics({ processMetrics: false });
    // retries on (as in production), with a 1 ms base: a read that fails once and then answers counts once, as 200
    const Octokit = countGitHubRequests(ProbotOctokit, metrics);
    const client = new OctokitGitHubClient(
      new Octokit({ throttle: { enabled: false }, retry: { retryAfterBaseValue: 1 } } as never),
      async () => "no-mistakes",
    );
    let hits = 0;
    nock("https://api.github.com")
      .get("/repos/o/r/pulls/7")
      .times(2)
      .reply(() => (++hits === 1 ? [502, { message: "Bad Gateway" }] : [200, pr]))
      .post("/repos/o/r/issues/7/comments")
      .reply(201, { id: 1, body: "hi", user: { id: 1 } })
      .post("/repos/o/r/issues/8/comments")
      .reply(404, { message: "Not Found" })
      .get("/repos/o/r/pulls/9")
      .replyWithError({ code: "ECONNRESET", message: "socket hang up" });

    await client.getPullRequest(ref, 7);
    await client.createIssueComment(ref, 7, "hi");
    await expect(client.createIssueComment(ref, 8, "hi")).rejects.toBeInstanceOf(GitHubError);
    await expect(client.getPullRequest(ref, 9)).rejects.toBeInstanceOf(GitHubError);

    const text = await metrics.text();
    expect(sample(text, 'github_requests_total{method="GET",status="200"}')).toBe(1);
    expect(sample(text, 'github_requests_total{method="POST",status="201"}')).toBe(1);
    expect(sample(text, 'github_requests_total{method="POST",status="404"}')).toBe(1);
    expect(sample(text, 'github_requests_total{method="GET",status="error"}')).toBe(1);
    expect(text).not.toContain('status="502"'); // retried: the final answer is what counts
  });

  it("leaves the class it was given alone", async () => {
    const metrics = new Metrics({ processMetrics: false });
    countGitHubRequests(ProbotOctokit, metrics);
    nock("https://api.github.com").get("/repos/o/r/pulls/7").reply(200, pr);
    await new ProbotOctokit({ throttle: { enabled: false } } as never).rest.pulls.get({ ...ref, pull_number: 7 });
    expect(await metrics.text()).not.toContain("github_requests_total{");
  });
});
