import { describe, expect, it } from "vitest";
import { messagesText } from "../helpers/fake-anthropic-server.js";
import { BOT_USER } from "../helpers/github-stand-in.js";
import { useClaudeFlow } from "../helpers/claude-flow.js";
import { LOOP_BUG_APP, LOOP_FINDING } from "../helpers/flow-fixture.js";

const flow = useClaudeFlow({ permissions: { maintainer: "write" } });

describe("a reply in a finding's thread, answered by the real Claude Code CLI", () => {
  it("resumes the review's session: the model is sent the original review turn's messages, then the reply; the ruling lands in the thread", async () => {
    const { fx, model } = flow;
    const head = fx.push({ "src/app.ts": LOOP_BUG_APP }, "first");
    model.enqueue({ text: JSON.stringify({ summary: "One off-by-one.", findings: [LOOP_FINDING], resolved: [] }) });
    await fx.pullRequest("opened", head);
    const reviewCalls = model.mainCalls().length;
    expect(reviewCalls).toBeGreaterThanOrEqual(1);
    const nm1 = fx.findingComment("NM-1");

    model.enqueue({
      text: JSON.stringify({
        ruling: "withdrawn",
        reason: "Every caller passes n - 1.",
        reply: "You are right: the callers pass `n - 1`.",
      }),
    });
    await fx.replyInThread({ login: "maintainer" }, nm1.id, "Callers always pass n - 1 here.");

    // The thread turn's request carries the review turn's conversation: its prompt (with the diff) and the
    // model's own review answer come before the reply — the session was resumed, not rebuilt from a summary.
    const calls = model.mainCalls();
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

    const answers = fx.github.reviewComments.filter((c) => c.in_reply_to_id === nm1.id && c.user.id === BOT_USER.id);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.body).toContain("the callers pass `n - 1`");
    expect(answers[0]!.body).toContain("**NM-1: withdrawn**");
    expect((await fx.findings()).map((f) => [f.number, f.status, f.ruling])).toEqual([[1, "withdrawn", "withdrawn"]]);
    const turns = await fx.turns();
    expect(turns.map((t) => [t.role, t.trigger, t.sessionMode, t.status])).toEqual([
      ["reviewer", "opened", "started", "succeeded"],
      ["reviewer", "thread-reply", "resumed", "succeeded"],
    ]);
    expect(turns[1]!.sessionId).toBe(turns[0]!.sessionId);
  }, 180_000);
});
