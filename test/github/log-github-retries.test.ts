import { generateKeyPairSync } from "node:crypto";
import { Probot, ProbotOctokit } from "probot";
import { describe, expect, it } from "vitest";
import { GitHubError } from "../../src/github/github-error.js";
import { logGitHubRetries } from "../../src/github/log-github-retries.js";
import { OctokitGitHubClient } from "../../src/github/octokit-github-client.js";
import { classifyFailure } from "../../src/pipeline/job/classify-failure.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { freePort } from "../helpers/free-port.js";

/** GitHub unreachable: a closed port on 127.0.0.1, real connections, no nock. Retries on, as in production. */

const { privateKey } = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
});

const RETRY_MSG = "GitHub request failed; sending it again";

describe("GitHub unreachable", () => {
  it("an installation's first request: each failed attempt is logged at warn before the next is sent, and the job's error is 'unreachable', not a 500", async () => {
    const port = await freePort();
    const logs = captureLogger();
    const retryLines = () => logs.lines().filter((l) => l.msg === RETRY_MSG);
    // For each request sent: how many retry lines had been logged by then.
    const loggedBeforeSend: number[] = [];
    const probot = new Probot({
      appId: 1,
      privateKey,
      baseUrl: `http://127.0.0.1:${port}`,
      log: logs.log,
      Octokit: logGitHubRetries(ProbotOctokit).defaults({ retry: { retryAfterBaseValue: 1 } }),
      request: {
        fetch: (url: string, init: RequestInit) => {
          loggedBeforeSend.push(retryLines().length);
          return fetch(url, init);
        },
      },
    });
    const client = new OctokitGitHubClient(await probot.auth(5), async () => "no-mistakes");

    const error = await client.getPullRequest({ owner: "o", repo: "r" }, 7).catch((e: unknown) => e);

    // The first attempt (the installation's token) failed and was said at once, before the second was sent.
    expect(loggedBeforeSend.slice(0, 2)).toEqual([0, 1]);
    const [first] = retryLines();
    expect(first).toMatchObject({
      level: 40,
      name: "github",
      request: `POST http://127.0.0.1:${port}/app/installations/5/access_tokens`,
      attempt: 1,
      attempts: 4,
      retryInMs: 1, // retryAfter 1 × the 1 ms base (1 s in production: see below)
      kind: "unreachable",
      reason: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(first).not.toHaveProperty("status");
    // Every attempt that was sent again was said, each with its delay.
    expect(retryLines().length).toBeGreaterThanOrEqual(3);
    expect(
      retryLines()
        .slice(0, 3)
        .map((l) => [l.attempt, l.retryInMs]),
    ).toEqual([
      [1, 1],
      [2, 4],
      [3, 9],
    ]);

    expect(error).toBeInstanceOf(GitHubError);
    const failure = error as GitHubError;
    expect(failure.kind).toBe("unreachable");
    expect(failure.status).toBeUndefined();
    expect(failure.message).toMatch(
      new RegExp(
        `^get pull request \\(installation token\\): no answer from GitHub \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)$`,
      ),
    );
    expect(failure.message).not.toContain("500");
    expect(classifyFailure(error)).toMatchObject({ retry: true, title: "GitHub could not be reached" });
  });

  it("with the production delays: the first failure says the request is sent again in 1 s", async () => {
    const port = await freePort();
    const logs = captureLogger();
    const octokit = new (logGitHubRetries(ProbotOctokit))({
      baseUrl: `http://127.0.0.1:${port}`,
      log: logs.log,
      throttle: { enabled: false },
    } as never);

    // one retry, so the test waits the one production delay
    const error = await octokit.request("GET /repos/o/r", { request: { retries: 1 } }).catch((e: unknown) => e);

    expect(logs.lines().filter((l) => l.msg === RETRY_MSG)).toEqual([
      expect.objectContaining({
        level: 40,
        request: `GET http://127.0.0.1:${port}/repos/o/r`,
        attempt: 1,
        attempts: 2,
        retryInMs: 1000,
        kind: "unreachable",
      }),
    ]);
    expect(error).toMatchObject({ status: 500 }); // what Octokit throws; toGitHubError classifies it (above)
  });
});
