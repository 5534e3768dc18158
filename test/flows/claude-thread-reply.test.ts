import { describe, expect, it } from "vitest";
import { listFindings } from "../../src/db/findings.js";
import { findRun } from "../../src/db/runs.js";
import { listTurns } from "../../src/db/turns.js";
import { messagesText } from "../helpers/fake-anthropic-server.js";
import { BOT_USER } from "../helpers/github-stand-in.js";
import { reviewCommentPayload } from "../helpers/review-comment-payload.js";
import { pullRequestPayload } from "../helpers/webhook-payloads.js";
import { useClaudeFlow } from "../helpers/claude-flow.js";
import { numbered } from "../helpers/flow-fixture.js";

const OWNER = "octo-org";
const REPO = "widgets";
const REPO_ID = 4344;
const PR = 8;

const flow = useClaudeFlow({ owner: OWNER, repo: REPO, permissions: { maintainer: "write" } });

describe("a reply in a finding's thread, answered by the real Claude Code CLI", () => {
  it("resumes the review's session: the model is sent the original review turn's messages, then the reply; the ruling lands in the thread", async () => {
    const baseSha = flow.remote.commit({ "src/app.ts": numbered("app"), "README.md": "# widgets\n" }, "base");
    flow.remote.publish("main");
    flow.remote.checkout("feature", true);
    flow.remote.commit({ "src/app.ts": numbered("app", 30, { 11: "for (i = 0; i <= n; i++)" }) }, "first");
    const head = flow.remote.publish("feature", PR);
    const reviewAnswer = JSON.stringify({
      summary: "One off-by-one.",
      findings: [
        {
          path: "src/app.ts",
          line: 11,
          severity: "error",
          action: "ask-user",
          title: "Off-by-one in loop bound",
          body: "`<=` reads past the end.",
        },
      ],
      resolved: [],
    });
    flow.model.enqueue({ text: reviewAnswer });
    await flow.app.receive(
      "pull_request",
      pullRequestPayload({
        action: "opened",
        number: PR,
        title: "Loop change",
        baseSha,
        headRef: "feature",
        headSha: head,
        cloneUrl: flow.remote.bare,
        repoId: REPO_ID,
        fullName: `${OWNER}/${REPO}`,
      }),
    );
    await flow.app.idle(90_000);
    const reviewCalls = flow.model.mainCalls().length;
    expect(reviewCalls).toBeGreaterThanOrEqual(1);
    const nm1 = flow.github.reviewComments.find((c) => c.body.includes("<!-- no-mistakes:NM-1 -->"))!;
    expect(nm1).toBeDefined();

    flow.model.enqueue({
      text: JSON.stringify({
        ruling: "withdrawn",
        reason: "Every caller passes n - 1.",
        reply: "You are right: the callers pass `n - 1`.",
      }),
    });
    const reply = flow.github.humanReviewReply({ login: "maintainer" }, nm1.id, "Callers always pass n - 1 here.");
    await flow.app.receive(
      "pull_request_review_comment",
      reviewCommentPayload(
        { pr: PR, repoId: REPO_ID, fullName: `${OWNER}/${REPO}`, cloneUrl: flow.remote.bare },
        reply,
      ),
    );
    await flow.app.idle(90_000);

    // The thread turn's request carries the review turn's conversation: its prompt (with the diff) and the
    // model's own review answer come before the reply — the session was resumed, not rebuilt from a summary.
    const calls = flow.model.mainCalls();
    expect(calls.length).toBeGreaterThan(reviewCalls);
    const threadCall = calls.at(-1)!;
    const text = messagesText(threadCall);
    const reviewPrompt = text.indexOf("i <= n");
    const reviewAnswerAt = text.indexOf("One off-by-one.");
    const argument = text.indexOf("Callers always pass n - 1 here.");
    expect(reviewPrompt).toBeGreaterThanOrEqual(0);
    expect(reviewAnswerAt).toBeGreaterThan(reviewPrompt);
    expect(argument).toBeGreaterThan(reviewAnswerAt);
    expect(threadCall.messages.filter((m) => m.role === "assistant").length).toBeGreaterThanOrEqual(1);

    const answers = flow.github.reviewComments.filter((c) => c.in_reply_to_id === nm1.id && c.user.id === BOT_USER.id);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.body).toContain("the callers pass `n - 1`");
    expect(answers[0]!.body).toContain("**NM-1: withdrawn**");
    const run = (await findRun(flow.database.handle.db, REPO_ID, PR))!;
    expect((await listFindings(flow.database.handle.db, run.id)).map((f) => [f.number, f.status, f.ruling])).toEqual([
      [1, "withdrawn", "withdrawn"],
    ]);
    const turns = await listTurns(flow.database.handle.db, run.id);
    expect(turns.map((t) => [t.role, t.trigger, t.sessionMode, t.status])).toEqual([
      ["reviewer", "opened", "started", "succeeded"],
      ["reviewer", "thread-reply", "resumed", "succeeded"],
    ]);
    expect(turns[1]!.sessionId).toBe(turns[0]!.sessionId);
  }, 180_000);
});
