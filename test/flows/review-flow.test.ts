import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import nock from "nock";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listFindings } from "../../src/db/findings.js";
import { findRun } from "../../src/db/runs.js";
import { listTurns } from "../../src/db/turns.js";
import { startAppHarness, type AppHarness } from "../helpers/app-harness.js";
import { GitRemote } from "../helpers/git-remote.js";
import { GitHubStandIn, INSTALLATION_TOKEN } from "../helpers/github-stand-in.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { pullRequestPayload } from "../helpers/webhook-payloads.js";

const OWNER = "octo-org";
const REPO = "widgets";
const REPO_ID = 4242;

/** A 30-line file whose lines are easy to point at. */
function numbered(prefix: string, n = 30, overrides: Record<number, string> = {}): string {
  return Array.from({ length: n }, (_, i) => overrides[i + 1] ?? `${prefix} line ${i + 1}`).join("\n") + "\n";
}

let database: TestDatabase;
let prNumber = 0;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  nock.disableNetConnect();
});
afterAll(async () => {
  await database.dispose();
  nock.enableNetConnect();
  removeTempDirs();
});

describe("review on every push", () => {
  let root: string;
  let remote: GitRemote;
  let github: GitHubStandIn;
  let app: AppHarness;
  let pr: number;
  let baseSha: string;

  beforeEach(async () => {
    root = tempDir();
    pr = ++prNumber;
    remote = new GitRemote(root);
    baseSha = remote.commit({ "src/app.ts": numbered("app"), "README.md": "# widgets\n" }, "base");
    remote.publish("main");
    github = new GitHubStandIn({
      owner: OWNER,
      repo: REPO,
      installationId: 99,
      bareRepo: remote.bare,
      baseRef: "main",
    });
    github.install();
    app = await startAppHarness({ database: database.handle, dataDir: join(root, "data") });
  });
  afterEach(async () => {
    await app?.stop();
  });

  function payload(action: string, headSha: string, extra: Partial<Parameters<typeof pullRequestPayload>[0]> = {}) {
    return pullRequestPayload({
      action,
      number: pr,
      title: `Widget change ${pr}`,
      baseSha,
      headRef: "feature",
      headSha,
      cloneUrl: remote.bare,
      repoId: REPO_ID,
      fullName: `${OWNER}/${REPO}`,
      ...extra,
    });
  }

  /** Opens the PR with a first commit changing app lines 10-12 and adding src/new.ts, and runs the first review. */
  async function openAndReview(times = 1): Promise<string> {
    remote.checkout("feature", true);
    remote.commit(
      {
        "src/app.ts": numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i <= n; i++)", 12: "changed 12" }),
        "src/new.ts": numbered("new", 5),
      },
      "first",
    );
    const head = remote.publish("feature", pr);
    app.scenario([
      {
        role: "reviewer",
        match: "src/new.ts",
        times,
        answer: {
          summary: "Two problems in the loop code.",
          findings: [
            {
              path: "src/app.ts",
              line: 11,
              severity: "error",
              action: "auto-fix",
              title: "Off-by-one in loop bound",
              body: "`<=` reads past the end.",
              suggestion: "for (i = 0; i < n; i++)",
            },
            {
              path: "src/app.ts",
              line: 25,
              severity: "warning",
              action: "ask-user",
              title: "Unused helper",
              body: "Nothing calls this.",
            },
            { path: "../../etc/passwd", line: 1, severity: "info", action: "no-op", title: "Outside", body: "x" },
            { path: "src/new.ts", line: 99, severity: "info", action: "no-op", title: "Beyond the end", body: "x" },
          ],
          resolved: [],
        },
      },
    ]);
    await app.receive("pull_request", payload("opened", head));
    await app.idle();
    if (process.env.DUMP_LOGS)
      console.log(
        app.logs
          .lines()
          .map((l) => `${l.time} ${l.msg}`)
          .join("\n"),
      );
    return head;
  }

  it("opened → one review with inline and body findings, a summary comment and a check run", async () => {
    const head = await openAndReview();

    // one review, event COMMENT, on the head commit
    const reviews = github.sent("POST", `/pulls/${pr}/reviews`);
    expect(reviews).toHaveLength(1);
    const review = reviews[0]!.body;
    expect(review).toMatchObject({ commit_id: head, event: "COMMENT" });
    // the finding on a diff line is inline, with a suggestion block
    expect(review.comments).toHaveLength(1);
    expect(review.comments[0]).toMatchObject({ path: "src/app.ts", line: 11, side: "RIGHT" });
    expect(review.comments[0].body).toContain("NM-1");
    expect(review.comments[0].body).toContain("```suggestion\nfor (i = 0; i < n; i++)\n```");
    // the finding off the diff goes into the body; the unplaceable ones are noted, never posted
    expect(review.body).toContain("NM-2");
    expect(review.body).toContain("Unused helper");
    expect(review.body).toContain("line not part of the diff");
    expect(review.body).toContain("the path is outside the repository");
    expect(review.body).toContain("line 99 is outside the file (5 lines)");
    expect(JSON.stringify(review.comments)).not.toContain("passwd");

    // check run: in progress, then failure (an open error finding)
    const check = [...github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check).toMatchObject({ name: "no-mistakes", status: "completed", conclusion: "failure" });
    expect(check.output.title).toBe("2 open findings (1 error, 1 warning)");
    expect(check.output.summary).toContain("NM-1");

    // one summary comment with the ledger and the turn
    expect(github.issueComments).toHaveLength(1);
    const summary = github.issueComments[0]!.body;
    expect(summary).toContain("<!-- no-mistakes:summary -->");
    expect(summary).toMatch(/\| NM-1 \| 🔴 error \| `src\/app.ts:11` \| Off-by-one in loop bound \| open \|/);
    expect(summary).toMatch(/\| 1 \| reviewer \| opened \| [0-9a-f]{7} \| started \| succeeded \|/);

    // ledger and run
    const run = (await findRun(database.handle.db, REPO_ID, pr))!;
    expect(run.lastReviewedSha).toBe(head);
    const ledger = await listFindings(database.handle.db, run.id);
    expect(ledger.map((f) => [f.number, f.status, f.commentId !== null])).toEqual([
      [1, "open", true],
      [2, "open", false],
    ]);
    expect((await listTurns(database.handle.db, run.id)).map((t) => [t.role, t.sessionMode, t.status])).toEqual([
      ["reviewer", "started", "succeeded"],
    ]);
  });

  it("synchronize → resumes the reviewer session, reviews only the new commit, posts nothing twice, resolves fixed findings", async () => {
    const first = await openAndReview();
    remote.commit(
      {
        "src/app.ts": numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i < n; i++)", 12: "changed 12" }),
        "src/new.ts": numbered("new", 5, { 2: "const token = process.env.SECRET; console.log(token)" }),
      },
      "second",
    );
    const head = remote.publish("feature", pr);
    app.scenario([
      {
        role: "reviewer",
        match: "NM-1",
        answer: {
          summary: "The loop is fixed; one new problem.",
          findings: [
            {
              id: "NM-2",
              path: "src/app.ts",
              line: 26,
              severity: "warning",
              action: "ask-user",
              title: "Unused helper",
              body: "Still unused (reworded).",
            },
            {
              path: "src/new.ts",
              line: 2,
              severity: "error",
              action: "auto-fix",
              title: "Secret written to the log",
              body: "Do not log tokens.",
            },
          ],
          resolved: ["NM-1"],
        },
      },
    ]);

    await app.receive("pull_request", payload("synchronize", head));
    await app.idle();

    const calls = app.agentCalls();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({
      role: "reviewer",
      sessionAsked: calls[0]!.sessionReturned,
      resumed: true,
      turnsInSession: 2,
    });
    // only the new commit's diff is in the prompt, with the open findings by id
    expect(calls[1]!.prompt).toContain("console.log(token)");
    expect(calls[1]!.prompt).not.toContain("+changed 12"); // the first commit's added line is context now
    expect(calls[1]!.prompt).toContain("NM-2");

    const reviews = github.sent("POST", `/pulls/${pr}/reviews`);
    expect(reviews).toHaveLength(2);
    const second = reviews[1]!.body;
    expect(second.commit_id).toBe(head);
    expect(second.comments.map((c: any) => [c.path, c.line])).toEqual([["src/new.ts", 2]]);
    expect(second.comments[0].body).toContain("NM-3");
    expect(second.body).not.toContain("Unused helper"); // restated, not posted again
    expect(second.body).toContain("Resolved:** NM-1");
    // NM-1's thread gets a reply and is resolved
    const nm1 = github.reviewComments.find((c) => c.body.includes("<!-- no-mistakes:NM-1 -->"))!;
    const replies = github.sent("POST", `/pulls/${pr}/comments/${nm1.id}/replies`);
    expect(replies.map((r) => r.body.body)).toEqual([`Resolved in ${head.slice(0, 7)}.`]);
    expect(github.resolvedThreads).toEqual([`THREAD_${nm1.id}`]);
    // the summary comment is edited in place
    expect(github.issueComments).toHaveLength(1);
    expect(github.sent("PATCH", "/issues/comments/")).toHaveLength(1);
    expect(github.issueComments[0]!.body).toMatch(/\| NM-1 \| .* \| resolved \|/);
    expect(github.issueComments[0]!.body).toMatch(/\| 2 \| reviewer \| synchronize \| [0-9a-f]{7} \| resumed \|/);

    const run = (await findRun(database.handle.db, REPO_ID, pr))!;
    expect(run.lastReviewedSha).toBe(head);
    expect(first).not.toBe(head);
    expect((await listFindings(database.handle.db, run.id)).map((f) => [f.number, f.status])).toEqual([
      [1, "fixed"],
      [2, "open"],
      [3, "open"],
    ]);
  });

  it("a reviewer's `resolved` for a finding whose code did not change is a claim: the finding stays open, keeps failing the check, and the summary says so", async () => {
    await openAndReview();
    remote.commit({ "src/new.ts": numbered("new", 5, { 2: "unrelated change" }) }, "second");
    const head = remote.publish("feature", pr);
    app.scenario([
      {
        role: "reviewer",
        match: "NM-1",
        answer: { summary: "All good now, everything is resolved.", findings: [], resolved: ["NM-1", "NM-2"] },
      },
    ]);

    await app.receive("pull_request", payload("synchronize", head));
    await app.idle();

    const run = (await findRun(database.handle.db, REPO_ID, pr))!;
    expect(
      (await listFindings(database.handle.db, run.id)).map((f) => [f.number, f.status, f.claimedResolvedSha]),
    ).toEqual([
      [1, "open", head],
      [2, "open", head],
    ]);
    const second = github.sent("POST", `/pulls/${pr}/reviews`)[1]!.body;
    expect(second.body).not.toContain("Resolved:**");
    expect(second.body).toContain("**Claimed resolved, unverified:** NM-1, NM-2");
    const nm1 = github.reviewComments.find((c) => c.body.includes("<!-- no-mistakes:NM-1 -->"))!;
    expect(github.sent("POST", `/pulls/${pr}/comments/${nm1.id}/replies`)).toHaveLength(0);
    expect(github.resolvedThreads).toEqual([]);
    const check = [...github.checkRuns.values()].filter((c) => c.head_sha === head);
    expect(check[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(github.issueComments[0]!.body).toContain("**2 open** (2 claimed resolved, unverified)");
    expect(github.issueComments[0]!.body).toMatch(
      /\| NM-1 \| .* \| open — claimed resolved at [0-9a-f]{7}, unverified \(its code did not change\) \|/,
    );
  });

  it("force-push → reviews the whole PR again and says so", async () => {
    await openAndReview();
    remote.resetHard(baseSha);
    remote.commit({ "src/app.ts": numbered("app", 30, { 5: "rewritten 5" }) }, "rewritten");
    const head = remote.publish("feature", pr);
    app.scenario([{ role: "reviewer", answer: { summary: "Rebased; looks fine.", findings: [], resolved: [] } }]);

    await app.receive("pull_request", payload("synchronize", head));
    await app.idle();

    const prompt = app.agentCalls()[1]!.prompt;
    expect(prompt).toMatch(/rewritten/i);
    expect(prompt).toContain("rewritten 5");
    expect(prompt).toContain("NM-1"); // open findings are still listed for the reviewer to judge
    const second = github.sent("POST", `/pulls/${pr}/reviews`)[1]!.body;
    expect(second.body).toContain("again (its history was rewritten)");
  });

  it("the same delivery twice → one review", async () => {
    remote.checkout("feature", true);
    const head = remote.publish("feature", pr);
    remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const moved = remote.publish("feature", pr);
    app.scenario([{ role: "reviewer", answer: { summary: "ok", findings: [], resolved: [] } }]);
    const body = payload("opened", moved);

    await app.receive("pull_request", body, "same-delivery");
    await app.receive("pull_request", body, "same-delivery");
    await app.idle();

    expect(head).not.toBe(moved);
    expect(app.agentCalls()).toHaveLength(1);
    expect(github.sent("POST", `/pulls/${pr}/reviews`)).toHaveLength(1);
  });

  it("a malformed answer gets one repair request in the same session, then a failed check run with the reason", async () => {
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const head = remote.publish("feature", pr);
    app.scenario([
      { role: "reviewer", match: "Answer again", text: "Sorry, still not JSON." },
      { role: "reviewer", text: "I think this PR is great!" },
    ]);

    await app.receive("pull_request", payload("opened", head));
    await app.idle();

    const calls = app.agentCalls();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ sessionAsked: calls[0]!.sessionReturned, resumed: true });
    expect(github.sent("POST", `/pulls/${pr}/reviews`)).toHaveLength(0);
    const check = [...github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check.output.title).toBe("The reviewer's answer could not be read");
    expect(check.output.summary).toContain("holds no JSON object");
    const run = (await findRun(database.handle.db, REPO_ID, pr))!;
    expect(run.lastReviewedSha).toBeNull();
    const turns = await listTurns(database.handle.db, run.id);
    expect(turns.map((t) => [t.trigger, t.rawAnswer])).toEqual([
      ["opened", "I think this PR is great!"],
      ["repair", "Sorry, still not JSON."],
    ]);
  });

  it("a repaired answer is posted normally", async () => {
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const head = remote.publish("feature", pr);
    app.scenario([
      { role: "reviewer", match: "Answer again", answer: { summary: "Repaired.", findings: [], resolved: [] } },
      { role: "reviewer", answer: { summary: "missing findings list" } },
    ]);
    await app.receive("pull_request", payload("opened", head));
    await app.idle();
    expect(github.sent("POST", `/pulls/${pr}/reviews`)[0]!.body.body).toContain("Repaired.");
    expect([...github.checkRuns.values()].find((c) => c.head_sha === head)!.conclusion).toBe("success");
  });

  it("GitHub 422 on the review → still one review: the refused comment found in pending reviews (deleted, never visible) and moved into the body", async () => {
    github = new GitHubStandIn({
      owner: OWNER,
      repo: REPO,
      installationId: 99,
      bareRepo: remote.bare,
      baseRef: "main",
      refuse: ["src/app.ts:12"],
    });
    nock.cleanAll();
    github.install();
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 10: "a", 11: "b", 12: "c" }) });
    const head = remote.publish("feature", pr);
    app.scenario([
      {
        role: "reviewer",
        answer: {
          summary: "Two findings.",
          findings: [
            { path: "src/app.ts", line: 10, severity: "warning", action: "ask-user", title: "First", body: "one" },
            { path: "src/app.ts", line: 12, severity: "warning", action: "ask-user", title: "Second", body: "two" },
          ],
        },
      },
    ]);

    await app.receive("pull_request", payload("opened", head));
    await app.idle();

    const posts = github.sent("POST", `/pulls/${pr}/reviews`);
    // refused whole; one pending probe per comment (no event); then the one review
    expect(posts.map((r) => [r.body.event ?? "PENDING", r.body.comments.map((c: any) => c.line)])).toEqual([
      ["COMMENT", [10, 12]],
      ["PENDING", [10]],
      ["PENDING", [12]],
      ["COMMENT", [10]],
    ]);
    expect(github.sent("DELETE", `/pulls/${pr}/reviews/`)).toHaveLength(1); // the accepted probe; the refused one was never created
    expect(github.pendingReviews).toEqual([]);
    expect(github.reviews).toHaveLength(1); // what people see: one review
    expect(github.sent("POST", new RegExp(`/pulls/${pr}/comments$`))).toHaveLength(0);
    expect(github.reviewComments.map((c) => c.line)).toEqual([10]);
    const final = github.reviews[0]!;
    expect(final.body).toContain("NM-2");
    expect(final.body).toContain("GitHub refused it as an inline comment");
    expect(final.body).not.toContain("**NM-1**");
    const warnings = app.logs
      .lines()
      .filter((l) => l.level === 40)
      .map((l) => l.msg);
    expect(warnings).toContain("GitHub refused the review; finding the refused comments");
    expect(warnings).toContain("GitHub refuses an inline comment; it goes into the review body");
  });

  it("a bad repository config is reported in the check run and the review runs on defaults", async () => {
    github.configYaml = "review:\n  sesion: cold\n  max_comments: lots\n";
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const head = remote.publish("feature", pr);
    app.scenario([{ role: "reviewer", answer: { summary: "ok", findings: [], resolved: [] } }]);

    await app.receive("pull_request", payload("opened", head));
    await app.idle();

    const check = [...github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check.conclusion).toBe("success");
    expect(check.output.summary).toContain("`.github/no-mistakes.yml` on the default branch has a problem");
    expect(check.output.summary).toContain("unknown key `sesion`");
    expect(check.output.summary).toContain("review.max_comments");
    expect(github.sent("POST", `/pulls/${pr}/reviews`)).toHaveLength(1);
  });

  it("a diff over the configured limit is reviewed in part, with a visible note", async () => {
    github.configYaml = "review:\n  max_diff_bytes: 2000\n";
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }), "src/zz-huge.ts": numbered("huge", 400) });
    const head = remote.publish("feature", pr);
    app.scenario([{ role: "reviewer", answer: { summary: "partial", findings: [], resolved: [] } }]);

    await app.receive("pull_request", payload("opened", head));
    await app.idle();

    const prompt = app.agentCalls()[0]!.prompt;
    expect(prompt).toContain("app line 4");
    expect(prompt).not.toContain("huge line 200");
    expect(prompt).toContain("src/zz-huge.ts"); // named as omitted
    const review = github.sent("POST", `/pulls/${pr}/reviews`)[0]!.body;
    expect(review.body).toContain("Partial review");
    expect(review.body).toContain("`src/zz-huge.ts`");
  });

  it("the installation token never reaches .git/config, the workspace, the agent or the logs", async () => {
    await openAndReview();
    const workspace = join(root, "data", "workspaces", String(REPO_ID), String(pr));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else files.push(full);
      }
    };
    walk(workspace);
    expect(files).toContain(join(workspace, ".git", "config"));
    const base64 = Buffer.from(`x-access-token:${INSTALLATION_TOKEN}`).toString("base64");
    for (const file of files) {
      const text = readFileSync(file).toString("latin1");
      expect(text, file).not.toContain(INSTALLATION_TOKEN);
      expect(text, file).not.toContain(base64);
    }
    for (const call of app.agentCalls()) expect(JSON.stringify(call)).not.toContain(INSTALLATION_TOKEN);
    expect(app.logs.text()).not.toContain(INSTALLATION_TOKEN);
    expect(app.logs.text()).not.toContain(base64);
    expect(github.sent("POST", "/access_tokens").length).toBeGreaterThan(0); // the token was really used
  });

  it("skips drafts and other bots' pushes; reviews this app's own fixer pushes", async () => {
    remote.checkout("feature", true);
    remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const head = remote.publish("feature", pr);
    app.scenario([{ role: "reviewer", answer: { summary: "ok", findings: [], resolved: [] } }]);

    await app.receive("pull_request", payload("opened", head, { draft: true }));
    await app.idle();
    await app.receive(
      "pull_request",
      payload("synchronize", head, { sender: { login: "dependabot[bot]", type: "Bot" } }),
    );
    await app.idle();
    expect(app.agentCalls()).toHaveLength(0);

    await app.receive(
      "pull_request",
      payload("synchronize", head, { sender: { login: "no-mistakes[bot]", type: "Bot" } }),
    );
    await app.idle();
    expect(app.agentCalls()).toHaveLength(1);
  });

  it("check run re-run → reviews again", async () => {
    const head = await openAndReview();
    app.scenario([{ role: "reviewer", answer: { summary: "again", findings: [], resolved: [] } }]);
    const check = [...github.checkRuns.values()].find((c) => c.head_sha === head)!;
    const { examplePayload } = await import("../helpers/webhook-payloads.js");
    const rerun = examplePayload("check_run", "rerequested");
    rerun.check_run = {
      ...rerun.check_run,
      id: check.id,
      name: "no-mistakes",
      head_sha: head,
      pull_requests: [{ number: pr }],
    };
    rerun.repository = { ...rerun.repository, id: REPO_ID, full_name: `${OWNER}/${REPO}` };
    rerun.installation = { id: 99 };

    await app.receive("check_run", rerun);
    await app.idle();

    expect(app.agentCalls()).toHaveLength(2);
    expect(github.sent("POST", `/pulls/${pr}/reviews`)).toHaveLength(2);
  });

  it("a job that fails after posting is retried and posts nothing twice", async () => {
    // the summary POST fails, and so does the one try after finding it did not land: the job fails and is retried
    const summaryPost = `POST /repos/${OWNER}/${REPO}/issues/${pr}/comments`;
    github = new GitHubStandIn({
      owner: OWNER,
      repo: REPO,
      installationId: 99,
      bareRepo: remote.bare,
      baseRef: "main",
      failOnce: [summaryPost, summaryPost],
    });
    nock.cleanAll();
    github.install();
    const head = await openAndReview(2);
    await app.idle();

    expect(github.sent("POST", `/issues/${pr}/comments`)).toHaveLength(3); // the 500, the 500 of the one try after the check, then the job's retry
    expect(app.agentCalls()).toHaveLength(2); // the turn ran twice...
    expect(github.reviews).toHaveLength(1); // ...and posted once
    expect(github.reviewComments).toHaveLength(1);
    expect(github.issueComments).toHaveLength(1);
    const checks = [...github.checkRuns.values()].filter((c) => c.head_sha === head);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ status: "completed", conclusion: "failure" });
  });

  it("closing a PR closes its run; reopening opens it again without reviewing the same head twice", async () => {
    const head = await openAndReview();
    await app.receive("pull_request", payload("closed", head));
    await app.idle();
    expect((await findRun(database.handle.db, REPO_ID, pr))!.state).toBe("closed");

    await app.receive("pull_request", payload("reopened", head));
    await app.idle();
    expect((await findRun(database.handle.db, REPO_ID, pr))!.state).toBe("open");
    expect(app.agentCalls()).toHaveLength(1);
    expect(github.reviews).toHaveLength(1);
  });

  it("a late webhook for an older push does not move the run back; the newest head is reviewed", async () => {
    await openAndReview();
    remote.commit({ "src/new.ts": numbered("new", 5, { 1: "second push" }) }, "second");
    const second = remote.publish("feature", pr);
    remote.commit({ "src/new.ts": numbered("new", 5, { 1: "third push" }) }, "third");
    const third = remote.publish("feature", pr);
    app.scenario([{ role: "reviewer", answer: { summary: "newest", findings: [], resolved: [] } }]);

    // GitHub delivers the third push first, the second one late
    await app.receive("pull_request", payload("synchronize", third, { updatedAt: "2030-01-01T10:00:03Z" }));
    await app.receive("pull_request", payload("synchronize", second, { updatedAt: "2030-01-01T10:00:02Z" }));
    await app.idle();

    const run = (await findRun(database.handle.db, REPO_ID, pr))!;
    expect(run.headSha).toBe(third);
    expect(run.lastReviewedSha).toBe(third);
    const reviews = app.agentCalls().filter((c) => c.role === "reviewer");
    expect(reviews).toHaveLength(2);
    expect(reviews[1]!.prompt).toContain("third push");
    expect(github.sent("POST", `/pulls/${pr}/reviews`).at(-1)!.body.commit_id).toBe(third);
  });

  it("reviews GitHub's newest PR head even when the run's stored head is stale", async () => {
    const first = await openAndReview();
    remote.commit({ "src/new.ts": numbered("new", 5, { 1: "pushed while a webhook was lost" }) }, "later");
    const later = remote.publish("feature", pr);
    app.scenario([{ role: "reviewer", answer: { summary: "caught up", findings: [], resolved: [] } }]);

    // a re-run on the old head (the push's webhook never arrived) still reviews the newest head
    await app.receive("pull_request", payload("synchronize", first, { updatedAt: "2031-01-01T00:00:00Z" }));
    await app.idle();

    expect(app.agentCalls().filter((c) => c.role === "reviewer")[1]!.prompt).toContain(
      "pushed while a webhook was lost",
    );
    expect((await findRun(database.handle.db, REPO_ID, pr))!).toMatchObject({ headSha: later, lastReviewedSha: later });
  });
});
