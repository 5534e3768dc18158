import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  filesUnder,
  FlowFixture,
  LOOP_AUTO_FIX,
  numbered,
  OWNER,
  PR_APP,
  REPO,
  REPO_ID,
} from "../helpers/flow-fixture.js";
import { listFindingEvents } from "../../src/db/finding-events.js";
import { listRefusals } from "../../src/db/refusals.js";
import { INSTALLATION_TOKEN } from "../helpers/github-stand-in.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";
import { examplePayload } from "../helpers/webhook-payloads.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

describe("review on every push", () => {
  beforeEach(async () => {
    fx = await FlowFixture.start(database.handle);
  });

  /** The first review: NM-1 inline on the loop bound, NM-2 off the diff, and two findings that cannot be placed. */
  const firstReview = (times: number) => ({
    role: "reviewer",
    match: "src/new.ts",
    times,
    answer: {
      summary: "Two problems in the loop code.",
      findings: [
        LOOP_AUTO_FIX,
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
  });

  /** Opens the PR with a first commit changing app lines 10-12 and adding src/new.ts, and runs the first review. */
  async function openAndReview(times = 1): Promise<string> {
    const files = { "src/app.ts": PR_APP, "src/new.ts": numbered("new", 5) };
    const head = await fx.open(files, [firstReview(times)], "first");
    if (process.env.DUMP_LOGS)
      console.log(
        fx.app.logs
          .lines()
          .map((l) => `${l.time} ${l.msg}`)
          .join("\n"),
      );
    return head;
  }

  it("opened → one review with inline and body findings, a summary comment and a check run", async () => {
    const head = await openAndReview();

    // one review, event COMMENT, on the head commit; the finding on a diff line is inline, with a suggestion block
    const review = fx.onlyReview(head);
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
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check).toMatchObject({ name: "no-mistakes", status: "completed", conclusion: "failure" });
    expect(check.output.title).toBe("2 open findings (1 error, 1 warning)");
    expect(check.output.summary).toContain("NM-1");

    // one summary comment with the ledger and the turn
    expect(fx.github.issueComments).toHaveLength(1);
    const summary = fx.github.issueComments[0]!.body;
    expect(summary).toContain("<!-- no-mistakes:summary -->");
    expect(summary).toMatch(/\| NM-1 \| 🔴 error \| `src\/app.ts:11` \| Off-by-one in loop bound \| open \|/);
    expect(summary).toMatch(/\| 1 \| reviewer \| opened \| [0-9a-f]{7} \| started \| succeeded \|/);

    // ledger and run
    const run = await fx.run();
    expect(run.lastReviewedSha).toBe(head);
    const ledger = await fx.findings();
    expect(ledger.map((f) => [f.number, f.status, f.commentId !== null])).toEqual([
      [1, "open", true],
      [2, "open", false],
    ]);
    expect((await fx.turns()).map((t) => [t.role, t.sessionMode, t.status])).toEqual([
      ["reviewer", "started", "succeeded"],
    ]);
  });

  it("synchronize → resumes the reviewer session, reviews only the new commit, posts nothing twice, resolves fixed findings", async () => {
    const first = await openAndReview();
    fx.remote.commit(
      {
        "src/app.ts": numbered("app", 30, { 10: "changed 10", 11: "for (i = 0; i < n; i++)", 12: "changed 12" }),
        "src/new.ts": numbered("new", 5, { 2: "const token = process.env.SECRET; console.log(token)" }),
      },
      "second",
    );
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([
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

    await fx.pullRequest("synchronize", head);

    const calls = fx.app.agentCalls();
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

    const reviews = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`);
    expect(reviews).toHaveLength(2);
    const second = reviews[1]!.body;
    expect(second.commit_id).toBe(head);
    expect(second.comments.map((c: any) => [c.path, c.line])).toEqual([["src/new.ts", 2]]);
    expect(second.comments[0].body).toContain("NM-3");
    expect(second.body).not.toContain("Unused helper"); // restated, not posted again
    expect(second.body).toContain("Resolved:** NM-1");
    // NM-1's thread gets a reply and is resolved
    const nm1 = fx.findingComment("NM-1");
    const replies = fx.github.sent("POST", `/pulls/${fx.pr}/comments/${nm1.id}/replies`);
    expect(replies.map((r) => r.body.body)).toEqual([`Resolved in ${head.slice(0, 7)}.`]);
    expect(fx.github.resolvedThreads).toEqual([`THREAD_${nm1.id}`]);
    // the summary comment is edited in place
    expect(fx.github.issueComments).toHaveLength(1);
    expect(fx.github.sent("PATCH", "/issues/comments/")).toHaveLength(1);
    expect(fx.github.issueComments[0]!.body).toMatch(/\| NM-1 \| .* \| resolved \|/);
    expect(fx.github.issueComments[0]!.body).toMatch(/\| 2 \| reviewer \| synchronize \| [0-9a-f]{7} \| resumed \|/);

    const run = await fx.run();
    expect(run.lastReviewedSha).toBe(head);
    expect(first).not.toBe(head);
    expect((await fx.findings()).map((f) => [f.number, f.status])).toEqual([
      [1, "fixed"],
      [2, "open"],
      [3, "open"],
    ]);
    // each finding's history, at the reviewer turn that did it
    const [t1, t2] = (await fx.turns()).map((t) => t.id);
    expect(
      (await listFindingEvents(database.handle.db, run.id)).map((e) => [e.findingNumber, e.kind, e.actor, e.turnId]),
    ).toEqual([
      [1, "raised", "reviewer", t1],
      [1, "posted", "reviewer", t1],
      [1, "fixed", "reviewer", t2],
      [2, "raised", "reviewer", t1],
      [2, "posted", "reviewer", t1],
      [2, "restated", "reviewer", t2],
      [3, "raised", "reviewer", t2],
      [3, "posted", "reviewer", t2],
    ]);
  });

  it("a reviewer's `resolved` for a finding whose code did not change is a claim: the finding stays open, keeps failing the check, and the summary says so", async () => {
    await openAndReview();
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 2: "unrelated change" }) }, "second");
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([
      {
        role: "reviewer",
        match: "NM-1",
        answer: { summary: "All good now, everything is resolved.", findings: [], resolved: ["NM-1", "NM-2"] },
      },
    ]);

    await fx.pullRequest("synchronize", head);

    expect((await fx.findings()).map((f) => [f.number, f.status, f.claimedResolvedSha])).toEqual([
      [1, "open", head],
      [2, "open", head],
    ]);
    const second = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)[1]!.body;
    expect(second.body).not.toContain("Resolved:**");
    expect(second.body).toContain("**Claimed resolved, unverified:** NM-1, NM-2");
    const nm1 = fx.findingComment("NM-1");
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/comments/${nm1.id}/replies`)).toHaveLength(0);
    expect(fx.github.resolvedThreads).toEqual([]);
    const check = [...fx.github.checkRuns.values()].filter((c) => c.head_sha === head);
    expect(check[0]).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(fx.github.issueComments[0]!.body).toContain("**2 open** (2 claimed resolved, unverified)");
    expect(fx.github.issueComments[0]!.body).toMatch(
      /\| NM-1 \| .* \| open — claimed resolved at [0-9a-f]{7}, unverified \(its code did not change\) \|/,
    );
  });

  it("force-push → reviews the whole PR again and says so", async () => {
    await openAndReview();
    fx.remote.resetHard(fx.baseSha);
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 5: "rewritten 5" }) }, "rewritten");
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "Rebased; looks fine.", findings: [], resolved: [] } }]);

    await fx.pullRequest("synchronize", head);

    const prompt = fx.app.agentCalls()[1]!.prompt;
    expect(prompt).toMatch(/rewritten/i);
    expect(prompt).toContain("rewritten 5");
    expect(prompt).toContain("NM-1"); // open findings are still listed for the reviewer to judge
    const second = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)[1]!.body;
    expect(second.body).toContain("again (its history was rewritten)");
  });

  it("the same delivery twice → one review", async () => {
    fx.remote.checkout("feature", true);
    const head = fx.remote.publish("feature", fx.pr);
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const moved = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "ok", findings: [], resolved: [] } }]);
    const body = fx.prPayload("opened", moved);

    await fx.app.receive("pull_request", body, "same-delivery");
    await fx.app.receive("pull_request", body, "same-delivery");
    await fx.app.idle();

    expect(head).not.toBe(moved);
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(1);
  });

  it("a malformed answer gets one repair request in the same session, then a failed check run with the reason", async () => {
    fx.remote.checkout("feature", true);
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([
      { role: "reviewer", match: "Answer again", text: "Sorry, still not JSON." },
      { role: "reviewer", text: "I think this PR is great!" },
    ]);

    await fx.pullRequest("opened", head);

    const calls = fx.app.agentCalls();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ sessionAsked: calls[0]!.sessionReturned, resumed: true });
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(0);
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check.output.title).toBe("The reviewer's answer could not be read");
    expect(check.output.summary).toContain("holds no JSON object");
    const run = await fx.run();
    expect(run.lastReviewedSha).toBeNull();
    const turns = await fx.turns();
    expect(turns.map((t) => [t.trigger, t.rawAnswer])).toEqual([
      ["opened", "I think this PR is great!"],
      ["repair", "Sorry, still not JSON."],
    ]);
  });

  it("a repaired answer is posted normally", async () => {
    fx.remote.checkout("feature", true);
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([
      { role: "reviewer", match: "Answer again", answer: { summary: "Repaired.", findings: [], resolved: [] } },
      { role: "reviewer", answer: { summary: "missing findings list" } },
    ]);
    await fx.pullRequest("opened", head);
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)[0]!.body.body).toContain("Repaired.");
    expect([...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!.conclusion).toBe("success");
  });

  it("GitHub 422 on the review → still one review: the refused comment found in pending reviews (deleted, never visible) and moved into the body", async () => {
    fx.replaceStandIn({ refuse: ["src/app.ts:12"] });
    fx.remote.checkout("feature", true);
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 10: "a", 11: "b", 12: "c" }) });
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([
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

    await fx.pullRequest("opened", head);

    const posts = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`);
    // refused whole; one pending probe per comment (no event); then the one review
    expect(posts.map((r) => [r.body.event ?? "PENDING", r.body.comments.map((c: any) => c.line)])).toEqual([
      ["COMMENT", [10, 12]],
      ["PENDING", [10]],
      ["PENDING", [12]],
      ["COMMENT", [10]],
    ]);
    expect(fx.github.sent("DELETE", `/pulls/${fx.pr}/reviews/`)).toHaveLength(1); // the accepted probe; the refused one was never created
    expect(fx.github.pendingReviews).toEqual([]);
    expect(fx.github.reviews).toHaveLength(1); // what people see: one review
    expect(fx.github.sent("POST", new RegExp(`/pulls/${fx.pr}/comments$`))).toHaveLength(0);
    expect(fx.github.reviewComments.map((c) => c.line)).toEqual([10]);
    const final = fx.github.reviews[0]!;
    expect(final.body).toContain("NM-2");
    expect(final.body).toContain("GitHub refused it as an inline comment");
    expect(final.body).not.toContain("**NM-1**");
    const warnings = fx.app.logs
      .lines()
      .filter((l) => l.level === 40)
      .map((l) => l.msg);
    expect(warnings).toContain("GitHub refused the review; finding the refused comments");
    expect(warnings).toContain("GitHub refuses an inline comment; it goes into the review body");
    const refusals = (await listRefusals(database.handle.db)).filter((r) => r.prNumber === fx.pr);
    expect(refusals.map((r) => [r.kind, r.repositoryFullName, r.actor])).toEqual([
      ["review_refused", `${OWNER}/${REPO}`, "reviewer"],
    ]);
    expect(refusals[0]!.reason).toMatch(
      new RegExp(`^GitHub refused the review at ${head.slice(0, 7)} \\(.*422.*\\); moved into the body: NM-2$`),
    );
  });

  it("a bad repository config is reported in the check run and the review runs on defaults", async () => {
    fx.github.configYaml = "review:\n  sesion: cold\n  max_comments: lots\n";
    fx.remote.checkout("feature", true);
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "ok", findings: [], resolved: [] } }]);

    await fx.pullRequest("opened", head);

    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    // nothing open, but not green: settings the maintainers wrote were left out
    expect(check.conclusion).toBe("neutral");
    expect(check.output.title).toBe("Converged · No open findings · 2 config problems in .github/no-mistakes.yml");
    expect(check.output.summary).toContain("A config file on the default branch has a problem");
    expect(check.output.summary).toContain(".github/no-mistakes.yml line 2: `review.sesion`: unknown key");
    expect(check.output.summary).toContain("review.max_comments");
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(1);
  });

  it("a diff over the configured limit is reviewed in part, with a visible note", async () => {
    fx.github.configYaml = "review:\n  max_diff_bytes: 2000\n";
    fx.remote.checkout("feature", true);
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }), "src/zz-huge.ts": numbered("huge", 400) });
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "partial", findings: [], resolved: [] } }]);

    await fx.pullRequest("opened", head);

    const prompt = fx.app.agentCalls()[0]!.prompt;
    expect(prompt).toContain("app line 4");
    expect(prompt).not.toContain("huge line 200");
    expect(prompt).toContain("src/zz-huge.ts"); // named as omitted
    const review = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)[0]!.body;
    expect(review.body).toContain("Partial review");
    expect(review.body).toContain("`src/zz-huge.ts`");
  });

  it("the installation token never reaches .git/config, the workspace, the agent or the logs", async () => {
    await openAndReview();
    const files = filesUnder(fx.workspace);
    expect(files).toContain(join(fx.workspace, ".git", "config"));
    const base64 = Buffer.from(`x-access-token:${INSTALLATION_TOKEN}`).toString("base64");
    for (const file of files) {
      const text = readFileSync(file).toString("latin1");
      expect(text, file).not.toContain(INSTALLATION_TOKEN);
      expect(text, file).not.toContain(base64);
    }
    for (const call of fx.app.agentCalls()) expect(JSON.stringify(call)).not.toContain(INSTALLATION_TOKEN);
    expect(fx.app.logs.text()).not.toContain(INSTALLATION_TOKEN);
    expect(fx.app.logs.text()).not.toContain(base64);
    expect(fx.github.sent("POST", "/access_tokens").length).toBeGreaterThan(0); // the token was really used
  });

  it("skips drafts; a person's PR is reviewed whoever pushed to it, another bot included", async () => {
    fx.remote.checkout("feature", true);
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }) });
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "ok", findings: [], resolved: [] } }]);

    await fx.pullRequest("opened", head, { draft: true });
    expect(fx.app.agentCalls()).toHaveLength(0);

    await fx.pullRequest("synchronize", head, { sender: { login: "dependabot[bot]", type: "Bot" } });
    expect(fx.app.agentCalls()).toHaveLength(1);
  });

  it("check run re-run → reviews again", async () => {
    const head = await openAndReview();
    fx.app.scenario([{ role: "reviewer", answer: { summary: "again", findings: [], resolved: [] } }]);
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    const rerun = examplePayload("check_run", "rerequested");
    rerun.check_run = {
      ...rerun.check_run,
      id: check.id,
      name: "no-mistakes",
      head_sha: head,
      pull_requests: [{ number: fx.pr }],
    };
    rerun.repository = { ...rerun.repository, id: REPO_ID, full_name: `${OWNER}/${REPO}` };
    rerun.installation = { id: 99 };

    await fx.app.receive("check_run", rerun);
    await fx.app.idle();

    expect(fx.app.agentCalls()).toHaveLength(2);
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(2);
  });

  it("a job that fails after posting is retried and posts nothing twice", async () => {
    // the summary POST fails, and so does the one try after finding it did not land: the job fails and is retried
    const summaryPost = `POST /repos/${OWNER}/${REPO}/issues/${fx.pr}/comments`;
    fx.replaceStandIn({ failOnce: [summaryPost, summaryPost] });
    const head = await openAndReview(2);
    await fx.app.idle();

    expect(fx.github.sent("POST", `/issues/${fx.pr}/comments`)).toHaveLength(3); // the 500, the 500 of the one try after the check, then the job's retry
    expect(fx.app.agentCalls()).toHaveLength(2); // the turn ran twice...
    expect(fx.github.reviews).toHaveLength(1); // ...and posted once
    expect(fx.github.reviewComments).toHaveLength(1);
    expect(fx.github.issueComments).toHaveLength(1);
    const checks = [...fx.github.checkRuns.values()].filter((c) => c.head_sha === head);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ status: "completed", conclusion: "failure" });
  });

  it("closing a PR closes its run; reopening opens it again without reviewing the same head twice", async () => {
    const head = await openAndReview();
    await fx.pullRequest("closed", head);
    expect((await fx.run()).state).toBe("closed");

    await fx.pullRequest("reopened", head);
    expect((await fx.run()).state).toBe("open");
    expect(fx.app.agentCalls()).toHaveLength(1);
    expect(fx.github.reviews).toHaveLength(1);
  });

  it("a late webhook for an older push does not move the run back; the newest head is reviewed", async () => {
    await openAndReview();
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 1: "second push" }) }, "second");
    const second = fx.remote.publish("feature", fx.pr);
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 1: "third push" }) }, "third");
    const third = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "newest", findings: [], resolved: [] } }]);

    // GitHub delivers the third push first, the second one late
    await fx.app.receive("pull_request", fx.prPayload("synchronize", third, { updatedAt: "2030-01-01T10:00:03Z" }));
    await fx.app.receive("pull_request", fx.prPayload("synchronize", second, { updatedAt: "2030-01-01T10:00:02Z" }));
    await fx.app.idle();

    const run = await fx.run();
    expect(run.headSha).toBe(third);
    expect(run.lastReviewedSha).toBe(third);
    const reviews = fx.app.agentCalls().filter((c) => c.role === "reviewer");
    expect(reviews).toHaveLength(2);
    expect(reviews[1]!.prompt).toContain("third push");
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`).at(-1)!.body.commit_id).toBe(third);
  });

  it("reviews GitHub's newest PR head even when the run's stored head is stale", async () => {
    const first = await openAndReview();
    fx.remote.commit({ "src/new.ts": numbered("new", 5, { 1: "pushed while a webhook was lost" }) }, "later");
    const later = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "caught up", findings: [], resolved: [] } }]);

    // a re-run on the old head (the push's webhook never arrived) still reviews the newest head
    await fx.pullRequest("synchronize", first, { updatedAt: "2031-01-01T00:00:00Z" });

    expect(fx.app.agentCalls().filter((c) => c.role === "reviewer")[1]!.prompt).toContain(
      "pushed while a webhook was lost",
    );
    expect(await fx.run()).toMatchObject({ headSha: later, lastReviewedSha: later });
  });
});
