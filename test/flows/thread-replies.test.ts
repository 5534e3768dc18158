import { describe, expect, it } from "vitest";
import { listFindingEvents } from "../../src/db/finding-events.js";
import { listRefusals } from "../../src/db/refusals.js";
import { bugAndNitReview, FlowFixture, LOOP_FINDING } from "../helpers/flow-fixture.js";
import { BOT_USER } from "../helpers/github-stand-in.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

/** The PR's author in the example payloads; no write access here. */
const AUTHOR = { login: "Codertocat" };
const WRITER = { login: "maintainer" };
const VISITOR = { login: "visitor" };

/** Opens the PR and lets the first review land: NM-1 (error) and NM-2 (info), each an inline comment by the bot. */
async function openReviewed(configYaml?: string): Promise<string> {
  fx = await FlowFixture.start(database.handle, {
    permissions: { maintainer: "write", visitor: "read", Codertocat: "read" },
    configYaml,
  });
  return fx.openReviewed(bugAndNitReview("ask-user"));
}

/** The reviewer's step answering an argument in NM-1's thread with a ruling. */
const ruleOnNm1 = (ruling: string, reason: string, reply: string, step: Record<string, unknown> = {}) => ({
  role: "reviewer",
  match: "NM-1",
  ...step,
  answer: { ruling, reason, reply },
});
const checkConclusion = (sha: string) => [...fx.github.checkRuns.values()].find((c) => c.head_sha === sha)?.conclusion;
/** The bot's replies in a thread, in order. */
const botReplies = (threadId: number) =>
  fx.github.reviewComments.filter((c) => c.in_reply_to_id === threadId && c.user.id === BOT_USER.id).map((c) => c.body);

describe("replies in a finding's thread", () => {
  it("resume the reviewer's session, which answers in the same thread; its ruling is in the ledger", async () => {
    const head = await openReviewed();
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([
      ruleOnNm1(
        "upheld",
        "n is the length, so `<= n` reads one past the end.",
        "The array has `n` items; index `n` is past the end.",
      ),
    ]);

    const argued = await fx.replyInThread(AUTHOR, nm1.id, "This is fine, n is exclusive here.");

    const calls = fx.app.agentCalls().filter((c) => c.role === "reviewer");
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ sessionAsked: calls[0]!.sessionReturned, resumed: true, turnsInSession: 2 });
    expect(calls[1]!.prompt).toContain("This is fine, n is exclusive here.");
    expect(calls[1]!.prompt).toContain("Off-by-one in loop bound");
    // the answer is a reply in NM-1's thread (in_reply_to the bot's comment), with the ruling
    const replies = fx.github.sent("POST", `/comments/${nm1.id}/replies`);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.body.body).toContain("The array has `n` items; index `n` is past the end.");
    expect(replies[0]!.body.body).toContain("**NM-1: upheld**");
    expect(fx.github.reviewCommentReactions.map((r) => [r.commentId, r.content])).toEqual([[argued.id, "eyes"]]);
    const nm = (await fx.findings()).find((f) => f.number === 1)!;
    expect(nm).toMatchObject({
      status: "open",
      ruling: "upheld",
      rulingBy: "Codertocat",
      rulingReason: "n is the length, so `<= n` reads one past the end.",
    });
    const last = (await fx.turns()).at(-1)!;
    expect(last).toMatchObject({
      role: "reviewer",
      trigger: "thread-reply",
      sessionMode: "resumed",
      status: "succeeded",
    });
    expect(last.tokensIn).toBeGreaterThan(0);
    expect(checkConclusion(head)).toBe("failure");

    // the same delivery again (GitHub redelivers): nothing more
    await fx.app.receive("pull_request_review_comment", fx.reviewCommentPayload(argued), "delivery-redelivered-reply");
    await fx.app.idle();
    expect(fx.github.sent("POST", `/comments/${nm1.id}/replies`)).toHaveLength(1);
  });

  it("withdrawn on a writer's argument: the check turns green, and a later push does not raise NM-1 again", async () => {
    const head = await openReviewed();
    expect(checkConclusion(head)).toBe("failure");
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([
      ruleOnNm1("withdrawn", "The caller passes n - 1.", "You are right: every caller passes `n - 1`."),
    ]);

    await fx.replyInThread(WRITER, nm1.id, "All callers pass n - 1, see src/caller.ts.");

    expect((await fx.findings()).map((f) => [f.number, f.status, f.ruling, f.rulingConfirmation])).toEqual([
      [1, "withdrawn", "withdrawn", "writer"],
      [2, "open", null, null],
    ]);
    expect(checkConclusion(head)).toBe("success");
    expect(botReplies(nm1.id).at(-1)).toContain("It will not be raised again in this pull request.");
    expect(fx.summary()).toMatch(/NM-1 .*\| withdrawn \|/);

    // A later push: the reviewer reports the same problem again; it is not posted, and stays withdrawn.
    fx.app.scenario([
      { role: "reviewer", answer: { summary: "Same as before.", findings: [LOOP_FINDING], resolved: [] } },
    ]);
    const next = fx.push({ "README.md": "# widgets\nmore\n" }, "docs");
    await fx.pullRequest("synchronize", next);
    expect(fx.github.reviewComments.filter((c) => c.body.includes("Off-by-one in loop bound"))).toHaveLength(1);
    expect((await fx.findings()).map((f) => [f.number, f.status])).toEqual([
      [1, "withdrawn"],
      [2, "open"],
    ]);
    expect(checkConclusion(next)).toBe("success");
  });

  it("withdrawn at the author's request on an error: still failing, awaiting a maintainer, until a writer confirms", async () => {
    const head = await openReviewed();
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([
      ruleOnNm1("withdrawn", "The bound is guarded upstream.", "Agreed, the guard on line 3 covers it."),
    ]);

    const argued = await fx.replyInThread(AUTHOR, nm1.id, "There is a guard upstream.");

    expect((await fx.findings()).find((f) => f.number === 1)).toMatchObject({
      status: "open",
      ruling: "withdrawn",
      rulingConfirmation: "awaiting",
      rulingBy: "Codertocat",
    });
    expect(checkConclusion(head)).toBe("failure");
    expect(botReplies(nm1.id).at(-1)).toContain("withdrawn at the author's request, awaiting a maintainer");
    expect(fx.summary()).toContain("withdrawn at the author's request, awaiting a maintainer");
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check.output.summary).toContain("awaiting a maintainer");

    // the author cannot confirm their own request
    await fx.replyInThread(AUTHOR, nm1.id, "confirm");
    expect(botReplies(nm1.id).at(-1)).toContain("Only someone with write access");
    expect(checkConclusion(head)).toBe("failure");

    // a writer's `confirm`: no agent turn, the withdrawal takes effect
    const agentCallsBefore = fx.app.agentCalls().length;
    const confirmed = await fx.replyInThread(WRITER, nm1.id, "Confirm.");
    expect(fx.app.agentCalls()).toHaveLength(agentCallsBefore);
    expect((await fx.findings()).find((f) => f.number === 1)).toMatchObject({
      status: "withdrawn",
      rulingConfirmation: "confirmed",
      rulingConfirmedBy: "maintainer",
    });
    expect(checkConclusion(head)).toBe("success");
    expect(botReplies(nm1.id).at(-1)).toContain("Confirmed by @maintainer: NM-1 is withdrawn");
    // NM-1's history: the reviewer's ruling at the author's request (it did not take effect yet), in the
    // conversation's turn and at the author's reply, then the writer's confirmation at theirs
    const events = await listFindingEvents(database.handle.db, (await fx.run()).id, 1);
    const conversationTurn = (await fx.turns()).find((t) => t.trigger === "thread-reply")!;
    expect(events.map((e) => [e.kind, e.actor, e.detail, e.url])).toEqual([
      ["raised", "reviewer", null, null],
      ["posted", "reviewer", null, `#discussion_r${nm1.id}`],
      ["withdrawn", "reviewer", "argued by Codertocat: The bound is guarded upstream.", `#discussion_r${argued.id}`],
      ["confirmed", "maintainer", "the ruling withdrawn", `#discussion_r${confirmed.id}`],
    ]);
    expect(events[2]!.turnId).toBe(conversationTurn.id);
  });

  it("a writer's 👍 on the ruling confirms it, seen by the run's next job", async () => {
    await openReviewed();
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([
      ruleOnNm1("withdrawn", "Guarded upstream.", "Agreed.", { times: 1 }),
      { role: "reviewer", answer: { summary: "Nothing new.", findings: [], resolved: [] } },
    ]);
    await fx.replyInThread(AUTHOR, nm1.id, "There is a guard upstream.");
    const ruling = (await fx.findings()).find((f) => f.number === 1)!;
    expect(ruling.rulingConfirmation).toBe("awaiting");
    expect(ruling.rulingReplyId).toBe(
      fx.github.reviewComments.find((c) => c.in_reply_to_id === nm1.id && c.user.id === BOT_USER.id)!.id,
    );

    fx.github.reactToReviewComment(VISITOR, ruling.rulingReplyId!, "+1"); // not a writer: does not count
    fx.github.reactToReviewComment(WRITER, ruling.rulingReplyId!, "+1");
    const next = fx.push({ "README.md": "# widgets\nmore\n" }, "docs");
    await fx.pullRequest("synchronize", next);
    const events = await listFindingEvents(database.handle.db, (await fx.run()).id, 1);
    expect(events.slice(2).map((e) => [e.kind, e.actor, e.detail, e.url])).toEqual([
      ["withdrawn", "reviewer", "argued by Codertocat: Guarded upstream.", expect.stringMatching(/^#discussion_r\d+$/)],
      ["confirmed", "maintainer", "the ruling withdrawn, with a 👍", `#discussion_r${ruling.rulingReplyId}`],
    ]);

    expect((await fx.findings()).find((f) => f.number === 1)).toMatchObject({
      status: "withdrawn",
      rulingConfirmation: "confirmed",
      rulingConfirmedBy: "maintainer",
    });
    expect(checkConclusion(next)).toBe("success");
  });

  it("a reply by a bot, by someone who may not argue, or in a thread that is not the bot's finding: no turn, nothing posted", async () => {
    const head = await openReviewed();
    const nm1 = fx.findingComment("NM-1");
    const { commentId: humanThread } = fx.github.humanReview("reviewer2", head, "A human review", {
      path: "src/app.ts",
      line: 10,
      body: "Why change this line?",
    });
    const requestsBefore = fx.github.requests.filter((r) => r.method === "POST").length;
    fx.app.scenario([{ role: "reviewer", answer: { ruling: "upheld", reply: "should never be asked" } }]);

    await fx.replyInThread({ login: "dependabot[bot]", type: "Bot" }, nm1.id, "Bump!");
    await fx.replyInThread({ login: BOT_USER.login, id: BOT_USER.id, type: "Bot" }, nm1.id, "Resolved in abc.");
    await fx.replyInThread(WRITER, humanThread!, "Because the loop changed.");
    await fx.replyInThread(VISITOR, nm1.id, "I think this is fine.");

    expect(fx.app.agentCalls().filter((c) => c.role === "reviewer")).toHaveLength(1);
    expect(fx.github.requests.filter((r) => r.method === "POST").length).toBe(requestsBefore);
    expect((await fx.findings()).every((f) => f.ruling === null)).toBe(true);

    // someone without standing who addresses the bot is told who can argue
    await fx.replyInThread(VISITOR, nm1.id, "@no-mistakes[bot] this is fine, withdraw it");
    expect(fx.app.agentCalls().filter((c) => c.role === "reviewer")).toHaveLength(1);
    expect(botReplies(nm1.id).at(-1)).toContain(
      "Only the pull request's author and people with write access to this repository can argue NM-1",
    );
    // both of the visitor's replies on NM-1 were refused (the bot's own and other bots' replies are not refusals)
    const refused = (await listRefusals(database.handle.db)).filter((r) => r.prNumber === fx.pr);
    expect(refused.map((r) => [r.kind, r.actor, r.reason])).toEqual([
      [
        "unauthorized_command",
        "visitor",
        "thread reply on NM-1: not the pull request's author nor a writer (permission read)",
      ],
      [
        "unauthorized_command",
        "visitor",
        "thread reply on NM-1: not the pull request's author nor a writer (permission read)",
      ],
    ]);
  });

  it("a dead session: the thread reply falls back to a fresh session whose prompt has the finding and the thread so far", async () => {
    await openReviewed();
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([ruleOnNm1("upheld", "Still wrong.", "It still reads past the end.", { times: 1 })]);
    await fx.replyInThread(WRITER, nm1.id, "First argument: n is exclusive.");

    fx.app.scenario([
      ruleOnNm1("deferred", "A follow-up will rewrite the loop.", "Fine, it can wait for the rewrite.", {
        failResume: true,
      }),
    ]);
    await fx.replyInThread(WRITER, nm1.id, "Second argument: the loop is rewritten next week.");

    const fresh = fx.app.agentCalls().at(-1)!;
    expect(fresh.sessionAsked).toBeNull();
    expect(fresh.prompt).toContain("Off-by-one in loop bound"); // the finding
    expect(fresh.prompt).toContain("`<=` reads past the end.");
    expect(fresh.prompt).toContain("First argument: n is exclusive."); // the thread so far
    expect(fresh.prompt).toContain("It still reads past the end.");
    expect(fresh.prompt).toContain("Second argument: the loop is rewritten next week."); // the new reply
    const last = (await fx.turns()).at(-1)!;
    expect(last).toMatchObject({ trigger: "thread-reply", sessionMode: "fallback" });
    expect(last.fallbackReason).toContain("resume of");
    expect((await fx.findings()).find((f) => f.number === 1)).toMatchObject({
      status: "deferred",
      ruling: "deferred",
      rulingConfirmation: "writer",
    });
    expect(fx.summary()).toMatch(/NM-1 .*\| deferred, not blocking \|/);
  });

  it("an unreadable answer gets one repair request, then a reply saying it could not be read; nothing changes", async () => {
    await openReviewed();
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([{ role: "reviewer", text: "I think you may be right, but who knows." }]);
    await fx.replyInThread(AUTHOR, nm1.id, "This is fine.");
    expect((await fx.turns()).slice(-2).map((t) => t.trigger)).toEqual(["thread-reply", "repair"]);
    expect(botReplies(nm1.id).at(-1)).toContain("The reviewer's answer could not be read (twice)");
    expect((await fx.findings()).find((f) => f.number === 1)).toMatchObject({ status: "open", ruling: null });
  });
});

describe("/no-mistakes ask", () => {
  it("the resumed reviewer answers in a reply; the turn and its spend are recorded; past the turn limit it is refused", async () => {
    await openReviewed("limits:\n  max_turns: 2\n");
    fx.app.scenario([
      { role: "reviewer", match: "Why does the loop", answer: { reply: "Because `n` is the length." } },
    ]);

    await fx.comment("/no-mistakes ask Why does the loop stop at n?", AUTHOR);

    const calls = fx.app.agentCalls().filter((c) => c.role === "reviewer");
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ sessionAsked: calls[0]!.sessionReturned, resumed: true });
    expect(calls[1]!.prompt).toContain("<question>\nWhy does the loop stop at n?\n</question>");
    expect(fx.replies().at(-1)).toMatch(/^@Codertocat\n\nBecause `n` is the length\./);
    const last = (await fx.turns()).at(-1)!;
    expect(last).toMatchObject({ role: "reviewer", trigger: "ask", sessionMode: "resumed", status: "succeeded" });
    expect(last.tokensIn + last.tokensOut).toBeGreaterThan(0);
    expect(fx.github.reactions.map((r) => r.content)).toEqual(["eyes"]);

    await fx.comment("/no-mistakes ask And the other loop?", WRITER);
    expect(fx.app.agentCalls().filter((c) => c.role === "reviewer")).toHaveLength(2);
    expect(fx.replies().at(-1)).toContain(
      "@maintainer The reviewer was not asked: this PR has used its budget of 2 agent turns (limits.max_turns)",
    );
    const refused = (await listRefusals(database.handle.db)).filter((r) => r.prNumber === fx.pr);
    expect(refused.map((r) => [r.kind, r.repositoryFullName, r.actor, r.reason])).toEqual([
      [
        "budget",
        "octo-org/widgets",
        "maintainer",
        "ask: the reviewer was not asked: this PR has used its budget of 2 agent turns (limits.max_turns); raise it in .github/no-mistakes.yml",
      ],
    ]);
  });

  it("is refused to someone who is neither the author nor a writer, and mentions of the bot in a review thread ask in that thread", async () => {
    const head = await openReviewed();
    await fx.comment("/no-mistakes ask what is this?", VISITOR);
    expect(fx.replies().at(-1)).toContain(
      "`/no-mistakes ask` is for the pull request's author and people with write access",
    );
    expect(fx.app.agentCalls().filter((c) => c.role === "reviewer")).toHaveLength(1);

    const { commentId: humanThread } = fx.github.humanReview("reviewer2", head, "A human review", {
      path: "src/app.ts",
      line: 10,
      body: "Why change this line?",
    });
    fx.app.scenario([
      { role: "reviewer", match: "is line 10 safe", answer: { reply: "Line 10 only renames a variable." } },
    ]);
    await fx.replyInThread(WRITER, humanThread!, "@no-mistakes[bot] is line 10 safe?");
    const answer = fx.github.sent("POST", `/comments/${humanThread}/replies`);
    expect(answer).toHaveLength(1);
    expect(answer[0]!.body.body).toContain("Line 10 only renames a variable.");
    expect(fx.app.agentCalls().at(-1)!.prompt).toContain("Why change this line?"); // the thread so far
    expect((await fx.turns()).at(-1)).toMatchObject({ trigger: "ask" });
  });
});
