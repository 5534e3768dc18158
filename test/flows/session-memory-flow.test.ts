import { describe, expect, it } from "vitest";
import { bugAndNitReview, FlowFixture, LOOP_FINDING } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);
const WRITER = { login: "maintainer" };

describe("what a PR's sessions remember survives rollovers", () => {
  it("a finding withdrawn in its thread at push 2 is not raised again at push 60, every session since a rollover", async () => {
    // A budget every session passes at once: each push's review starts a new session from the digest.
    fx = await FlowFixture.start(
      database.handle,
      // a long PR: past the default budget of 30 turns
      { permissions: { maintainer: "write" }, configYaml: "limits:\n  max_turns: 100\n" },
      { env: { AGENT_SESSION_MAX_TOKENS: "50" } },
    );
    let head = await fx.openReviewed(bugAndNitReview("ask-user"));
    const nm1 = fx.findingComment("NM-1");
    fx.app.scenario([
      {
        role: "reviewer",
        match: "NM-1",
        answer: { ruling: "withdrawn", reason: "The caller passes n - 1.", reply: "Right: callers pass `n - 1`." },
      },
    ]);
    await fx.replyInThread(WRITER, nm1.id, "All callers pass n - 1, see src/caller.ts.");
    expect((await fx.findings()).map((f) => [f.number, f.status])).toEqual([
      [1, "withdrawn"],
      [2, "open"],
    ]);

    for (let push = 2; push <= 60; push++) {
      // The reviewer is asked to raise the same problem on every push (as a model that forgot might).
      fx.app.scenario([
        {
          role: "reviewer",
          answer: { summary: `Push ${push}.`, findings: push === 60 ? [LOOP_FINDING] : [], resolved: [] },
        },
      ]);
      const next = fx.push({ [`docs/push-${push}.md`]: `push ${push}\n` }, `push ${push}`);
      await fx.pullRequest("synchronize", next, { before: head } as never);
      head = next;
    }

    const reviewer = fx.app.agentCalls().filter((c) => c.role === "reviewer");
    const last = reviewer.at(-1)!;
    expect(last.sessionAsked).toBeNull(); // a new session, not one that heard the argument
    expect(last.prompt).toContain("NM-1 withdrawn src/app.ts:11: Off-by-one in loop bound — The caller passes n - 1.");
    expect(last.prompt).toContain("Push 59."); // the previous session's summary
    const turns = await fx.turns();
    expect(turns.filter((t) => t.sessionMode === "rollover").length).toBeGreaterThanOrEqual(58);
    // raised again anyway: not posted, still withdrawn
    expect(fx.github.reviewComments.filter((c) => c.body.includes("Off-by-one in loop bound"))).toHaveLength(1);
    expect((await fx.findings()).map((f) => [f.number, f.status])).toEqual([
      [1, "withdrawn"],
      [2, "open"],
    ]);
  }, 240_000);
});
