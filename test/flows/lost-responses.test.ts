import { describe, expect, it } from "vitest";
import { BOT_USER } from "../helpers/github-stand-in.js";
import { FlowFixture, LOOP_BUG_APP, ONE_BUG, OWNER, REPO } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * GitHub did the work but its answer was lost (a 502 from a proxy): the write must not be made twice.
 * The HTTP layer never re-sends a creating POST; the bot looks for its own marker and tries once more
 * only when nothing landed.
 */

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const openWithFinding = () =>
  fx.open({ "src/app.ts": LOOP_BUG_APP }, [{ role: "reviewer", times: 1, answer: ONE_BUG }]);

async function expectCompleted(head: string): Promise<void> {
  expect((await fx.run()).lastReviewedSha).toBe(head);
  const checks = [...fx.github.checkRuns.values()].filter((c) => c.head_sha === head);
  expect(checks).toHaveLength(1);
  expect(checks[0]!.status).toBe("completed");
}

describe("a write whose answer is lost is made once", () => {
  it("review: the lost review is found by its head marker, not posted again, and its inline comment is linked", async () => {
    fx = await FlowFixture.start(database.handle, { loseResponseOnce: [`POST /repos/${OWNER}/${REPO}/pulls/`] });
    const head = await openWithFinding();

    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(1); // the lost one, never re-sent
    expect(fx.github.reviews.filter((r) => r.user.id === BOT_USER.id)).toHaveLength(1);
    const inline = fx.github.reviewComments.filter((c) => c.body.includes("<!-- no-mistakes:NM-1 -->"));
    expect(inline).toHaveLength(1);
    expect(fx.app.agentCalls()).toHaveLength(1);
    await expectCompleted(head);

    // the recovered comment id is the one the resolution reply goes to
    await fx.pushLoopFix(head);
    expect(fx.github.sent("POST", `/comments/${inline[0]!.id}/replies`)).toHaveLength(1);
  });

  it("summary comment: the lost summary is found by its marker, not posted again", async () => {
    fx = await FlowFixture.start(database.handle, { loseResponseOnce: [`POST /repos/${OWNER}/${REPO}/issues/`] });
    const head = await openWithFinding();

    expect(fx.github.sent("POST", `/issues/${fx.pr}/comments`)).toHaveLength(1);
    expect(fx.github.issueComments.filter((c) => c.body.startsWith("<!-- no-mistakes:summary -->"))).toHaveLength(1);
    expect(fx.github.reviews).toHaveLength(1);
    expect(fx.app.agentCalls()).toHaveLength(1);
    await expectCompleted(head);
    expect((await fx.run()).summaryCommentId).toBe(fx.github.issueComments[0]!.id);
  });

  it("check run: the lost check run is found by name, not created again", async () => {
    fx = await FlowFixture.start(database.handle, { loseResponseOnce: [`POST /repos/${OWNER}/${REPO}/check-runs`] });
    const head = await openWithFinding();

    expect(fx.github.sent("POST", "/check-runs")).toHaveLength(1);
    expect(fx.github.reviews).toHaveLength(1);
    await expectCompleted(head);
  });

  it('"Resolved in" reply: the lost reply is found on the thread, not posted again', async () => {
    fx = await FlowFixture.start(database.handle);
    const head = await openWithFinding();
    const thread = fx.findingComment("NM-1");
    fx.github.loseResponses.push(`POST /repos/${OWNER}/${REPO}/pulls/${fx.pr}/comments/${thread.id}/replies`);

    const fixed = await fx.pushLoopFix(head);

    expect(fx.github.sent("POST", `/comments/${thread.id}/replies`)).toHaveLength(1);
    const replies = fx.github.reviewComments.filter((c) => c.in_reply_to_id === thread.id);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body).toBe(`Resolved in ${fixed.slice(0, 7)}.`);
    expect(fx.github.resolvedThreads).toContain(`THREAD_${thread.id}`);
    await expectCompleted(fixed);
  });
});
