import { describe, expect, it } from "vitest";
import { FlowFixture, LOOP_BUG_APP, ONE_BUG, OWNER, REPO } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * GitHub refusing the App during a job: 401/403 (revoked key, suspended installation, missing
 * permission) is logged once at error with what the operator must do, shown on the check run when one
 * can be written, and never retried; a secondary rate limit is waited out (Retry-After) and retried once.
 */

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const errorLines = (fx: FlowFixture) => fx.app.logs.lines().filter((l) => (l.level as number) >= 50);

const openPr = (fx: FlowFixture) => fx.open({ "src/app.ts": LOOP_BUG_APP }, [{ role: "reviewer", answer: ONE_BUG }]);

describe("GitHub refuses the App during a job", () => {
  it("401 on the installation token: one error line naming the cause and the fix; the job is not retried", async () => {
    fx = await FlowFixture.start(database.handle, {
      failOnce: [
        {
          request: "POST /app/installations/99/access_tokens",
          status: 401,
          message: "A JSON web token could not be decoded",
        },
      ],
    });
    await openPr(fx);

    expect(fx.github.sent("POST", "/access_tokens")).toHaveLength(1); // no second try, hot or later
    expect(fx.app.agentCalls()).toHaveLength(0);
    expect(fx.github.checkRuns.size).toBe(0); // nothing can be written without a token
    const errors = errorLines(fx);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 401, problem: "credentials" });
    expect(errors[0]!.msg).toContain("the App's private key was revoked or the installation suspended");
    expect(errors[0]!.msg).toContain("Generate a new private key in the App's settings and set PRIVATE_KEY");
    expect(errors[0]!.msg).toContain('(installation token)"'); // the token is fetched with the installation's first request
  });

  it("403 (suspended installation) on the installation token: the same cause, no retry", async () => {
    fx = await FlowFixture.start(database.handle, {
      failOnce: [
        {
          request: "POST /app/installations/99/access_tokens",
          status: 403,
          message: "This installation has been suspended",
        },
      ],
    });
    await openPr(fx);

    expect(fx.github.sent("POST", "/access_tokens")).toHaveLength(1);
    const errors = errorLines(fx);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 403, problem: "credentials" });
    expect(errors[0]!.msg).toContain("the installation suspended");
  });

  it("403 on the review POST: one error line naming the missing permission and the fix, the check run says so, the job is not retried", async () => {
    fx = await FlowFixture.start(database.handle, {
      failOnce: [
        {
          request: `POST /repos/${OWNER}/${REPO}/pulls/`,
          status: 403,
          message: "Resource not accessible by integration",
          headers: { "x-accepted-github-permissions": "pull_requests=write" },
        },
      ],
    });
    const head = await openPr(fx);

    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(1); // refused once, never asked again
    expect(fx.app.agentCalls()).toHaveLength(1); // the turn ran once: no retried job
    expect(fx.github.sent("POST", "/access_tokens")).toHaveLength(1);
    const errors = errorLines(fx);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 403, problem: "permission", permission: "pull_requests=write" });
    expect(errors[0]!.msg).toContain(
      "the App lacks permission pull_requests=write: accept the new permissions in the installation settings",
    );

    const checks = [...fx.github.checkRuns.values()].filter((c) => c.head_sha === head);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(checks[0]!.output.title).toBe("The App lacks a GitHub permission");
    expect(checks[0]!.output.summary).toContain("accept the new permissions in the installation settings");
  });

  it("403 secondary rate limit with retry-after: 1 on the review POST: sent again once, at least 1 s later; nothing logged at error", async () => {
    fx = await FlowFixture.start(database.handle, {
      failOnce: [
        {
          request: `POST /repos/${OWNER}/${REPO}/pulls/`,
          status: 403,
          message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
          headers: { "retry-after": "1" },
        },
      ],
    });
    const head = await openPr(fx);

    const posts = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`);
    expect(posts).toHaveLength(2);
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(fx.github.reviews).toHaveLength(1);
    expect(fx.app.agentCalls()).toHaveLength(1); // the request was retried, not the job
    expect(errorLines(fx)).toEqual([]);
    const checks = [...fx.github.checkRuns.values()].filter((c) => c.head_sha === head);
    expect(checks[0]).toMatchObject({ status: "completed", conclusion: "failure" }); // the open error finding
    expect(checks[0]!.output.title).toBe("1 open finding (1 error)");
  });
  it("401 on the installation token while answering a command: one error line naming the fix, the command job is not retried", async () => {
    fx = await FlowFixture.start(database.handle, {
      failOnce: [
        {
          request: "POST /app/installations/99/access_tokens",
          status: 401,
          message: "A JSON web token could not be decoded",
        },
      ],
    });
    await fx.comment("/no-mistakes status");

    expect(fx.github.sent("POST", "/access_tokens")).toHaveLength(1); // asked once: no retried job
    expect(fx.github.sent("POST", `/issues/${fx.pr}/comments`)).toHaveLength(0);
    const errors = errorLines(fx);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 401, problem: "credentials", command: "status" });
    expect(errors[0]!.msg).toContain("Generate a new private key in the App's settings and set PRIVATE_KEY");
  });

  it("403 (missing permission) on a command's reply: one error line naming the permission; not retried", async () => {
    fx = await FlowFixture.start(database.handle, {
      failOnce: [
        {
          request: `POST /repos/${OWNER}/${REPO}/issues/`,
          status: 403,
          message: "Resource not accessible by integration",
          headers: { "x-accepted-github-permissions": "issues=write; pull_requests=write" },
        },
      ],
    });
    await fx.comment("/no-mistakes help");

    expect(fx.github.sent("POST", `/issues/${fx.pr}/comments`)).toHaveLength(1);
    const errors = errorLines(fx);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 403, problem: "permission", command: "help" });
  });
});

describe("GitHub answers 404 during a job", () => {
  it("404 on the repository's check runs (App not installed there, or no access): a warn per retried attempt with the reason, then one error line naming what to check", async () => {
    const notFound = { request: `GET /repos/${OWNER}/${REPO}/commits/`, status: 404, message: "Not Found" };
    fx = await FlowFixture.start(database.handle, { failOnce: Array(6).fill(notFound) });
    await openPr(fx);

    const asked = fx.github.sent("GET", `/repos/${OWNER}/${REPO}/commits/`);
    expect(asked).toHaveLength(6); // per attempt (the first and two retries): the review's, then the failure's on the check run
    const lines = fx.app.logs.lines();
    const warns = lines.filter(
      (l) => l.level === 40 && String(l.msg).startsWith("job failed, the queue will retry it"),
    );
    expect(warns.map((w) => w.attempt)).toEqual([1, 2]);
    for (const warn of warns) expect(warn.reason).toContain("404 Not Found");
    const errors = errorLines(fx);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ attempt: 3 });
    expect(errors[0]!.msg).toContain("job failed for good after 3 attempts");
    expect(errors[0]!.msg).toContain(
      `check that the App is installed on the repository ${OWNER}/${REPO} and has access to it`,
    );
    expect(errors[0]!.fix).toBe(String(errors[0]!.msg).split(": ").slice(2).join(": "));
  });
});
