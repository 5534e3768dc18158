import nock from "nock";
import { ProbotOctokit } from "probot";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GitHubError } from "../../src/github/github-error.js";
import { OctokitGitHubClient } from "../../src/github/octokit-github-client.js";
import { classifyFailure } from "../../src/pipeline/job/classify-failure.js";
import { resolveFindingThreads } from "../../src/pipeline/publish/resolve-finding-threads.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { finding, HEAD_SHA } from "../rendered/fixtures.js";

/** GraphQL failures classified as what GitHub said, like REST failures, never as "no response". */

const ref = { owner: "o", repo: "r" };
const THREAD = "PRRT_kwDOAbc123";

function client(throttle: boolean = false) {
  const octokit = new ProbotOctokit({
    retry: { enabled: false },
    // as in production, but without waiting: the plugin gives up at once when asked to retry
    throttle: throttle
      ? { enabled: true, onRateLimit: () => false, onSecondaryRateLimit: () => false }
      : { enabled: false },
  } as never);
  return new OctokitGitHubClient(octokit, async () => "no-mistakes");
}

/** GitHub's answer to the resolve mutation: 200 with `errors` (the shapes GitHub documents and sends). */
function resolveAnswers(status: number, body: unknown, headers: Record<string, string> = {}) {
  return nock("https://api.github.com")
    .post("/graphql", (sent: { query: string; variables: { id: string } }) => {
      expect(sent.query).toContain("resolveReviewThread");
      expect(sent.variables).toEqual({ id: THREAD });
      return true;
    })
    .reply(status, body as nock.Body, headers);
}

const FORBIDDEN = {
  data: { resolveReviewThread: null },
  errors: [
    {
      type: "FORBIDDEN",
      path: ["resolveReviewThread"],
      extensions: { saml_failure: false },
      locations: [{ line: 1, column: 20 }],
      message: "Resource not accessible by integration",
    },
  ],
};
const NOT_FOUND = {
  data: { resolveReviewThread: null },
  errors: [
    {
      type: "NOT_FOUND",
      path: ["resolveReviewThread"],
      locations: [{ line: 1, column: 20 }],
      message: `Could not resolve to a node with the global id of '${THREAD}'`,
    },
  ],
};
const RATE_LIMITED = {
  errors: [{ type: "RATE_LIMITED", message: "API rate limit already exceeded for installation ID 4242." }],
};
const INSUFFICIENT_SCOPES = {
  errors: [
    {
      type: "INSUFFICIENT_SCOPES",
      locations: [{ line: 1, column: 20 }],
      message: "Your token has not been granted the required scopes to execute this query.",
    },
  ],
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => {
  expect(nock.isDone()).toBe(true);
  nock.cleanAll();
});
afterAll(() => nock.enableNetConnect());

async function failure(promise: Promise<unknown>): Promise<GitHubError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitHubError);
  return error as GitHubError;
}

describe("a GraphQL answer of 200 with errors is classified by what GitHub said", () => {
  // a Retry-After past what a call waits out in place: the error is thrown, not retried
  it.each([
    ["FORBIDDEN", "auth", FORBIDDEN, { "x-accepted-github-permissions": "pull_requests=write" }],
    ["INSUFFICIENT_SCOPES", "auth", INSUFFICIENT_SCOPES, {}],
    ["NOT_FOUND", "not-found", NOT_FOUND, {}],
    ["RATE_LIMITED", "rate-limited", RATE_LIMITED, { "retry-after": "300" }],
  ] as const)("%s is %s, not a network failure", async (type, kind, body, headers) => {
    resolveAnswers(200, body, headers);
    const error = await failure(client().resolveReviewThread(THREAD));
    expect(error.kind).toBe(kind);
    expect(error.graphqlType).toBe(type);
    expect(error.transient).toBe(kind === "rate-limited");
    expect(error.message).toBe(`resolve review thread: GraphQL ${type} ${body.errors[0]!.message}`);
    if (kind === "auth") expect(error.authProblem).toBe("permission");
    if (type === "FORBIDDEN") expect(error.permission).toBe("pull_requests=write");
    if (kind === "rate-limited") expect(error.retryAfterMs).toBe(300_000);
  });

  it("RATE_LIMITED through the throttling plugin, which throws an error of its own, is rate-limited", async () => {
    resolveAnswers(200, RATE_LIMITED, { "x-ratelimit-reset": String(Math.floor(Date.now() / 1000)) });
    const error = await failure(client(true).resolveReviewThread(THREAD));
    expect(error.kind).toBe("rate-limited");
    expect(error.graphqlType).toBe("RATE_LIMITED");
  });

  it("an HTTP error from the GraphQL endpoint is classified as REST errors are", async () => {
    resolveAnswers(403, { message: "API rate limit exceeded" }, { "x-ratelimit-remaining": "0" });
    expect((await failure(client().resolveReviewThread(THREAD))).kind).toBe("rate-limited");
    resolveAnswers(502, { message: "Bad Gateway" });
    expect((await failure(client().resolveReviewThread(THREAD))).kind).toBe("server");
  });

  it("the log line of a thread that could not be resolved says permission", async () => {
    const commentNodeId = "PRRC_kwDOAbc999";
    nock("https://api.github.com")
      .post("/repos/o/r/pulls/7/comments/880001/replies", (sent: { body: string }) =>
        sent.body.startsWith("Resolved in"),
      )
      .reply(201, { id: 990001 })
      .post("/graphql", (sent: { query: string }) => sent.query.includes("reviewThreads"))
      .reply(200, {
        data: {
          repository: {
            pullRequest: {
              reviewThreads: {
                nodes: [{ id: THREAD, comments: { nodes: [{ id: commentNodeId }] } }],
                pageInfo: { hasNextPage: false, endCursor: null },
              },
            },
          },
        },
      });
    resolveAnswers(200, FORBIDDEN);
    const { log, lines } = captureLogger();
    await resolveFindingThreads(
      client(),
      ref,
      7,
      HEAD_SHA,
      [finding({ number: 1, commentId: 880001, commentNodeId })],
      log,
    );
    const warned = lines().filter((l) => l.msg === "review thread could not be resolved; the reply stands alone");
    expect(warned).toHaveLength(1);
    expect(warned[0]!.err).toMatchObject({ kind: "auth", authProblem: "permission", graphqlType: "FORBIDDEN" });
    expect(JSON.stringify(warned[0])).not.toContain('"network"');
  });

  it("a job that fails on it is reported as the missing permission, and not retried", async () => {
    resolveAnswers(200, FORBIDDEN, { "x-accepted-github-permissions": "pull_requests=write" });
    const decision = classifyFailure(await failure(client().resolveReviewThread(THREAD)));
    expect(decision.retry).toBe(false);
    expect(decision.title).toBe("The App lacks a GitHub permission");
    expect(decision.auth?.message).toBe(
      'the App lacks permission pull_requests=write: accept the new permissions in the installation settings (or grant it in the App\'s settings). GitHub answered FORBIDDEN to "resolve review thread".',
    );
  });
});
