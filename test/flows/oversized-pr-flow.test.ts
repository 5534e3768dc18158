import { describe, expect, it } from "vitest";
import { FlowFixture, numbered } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

let fx: FlowFixture;
const database = useFlowDatabase(() => fx);

const MB = 1024 * 1024;

describe("a pull request larger than the app will read", () => {
  it("a diff bomb (a few KB pushed, 30 MB of diff) is left out with a line saying so, and the review is posted", async () => {
    fx = await FlowFixture.start(database.handle);
    fx.remote.checkout("feature", true);
    // 15 MB of "bomb\n" lines compresses to a few KB in the push; its diff would be ~18 MB.
    fx.remote.commit({ "src/app.ts": numbered("app", 30, { 3: "x" }), "data/bomb.txt": "bomb\n".repeat(3 * MB) });
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "looked at app.ts", findings: [], resolved: [] } }]);

    await fx.pullRequest("opened", head);

    const prompt = fx.app.agentCalls()[0]!.prompt;
    expect(prompt).toContain("app line 4");
    expect(prompt).not.toContain("+bomb");
    expect(prompt).toContain("data/bomb.txt"); // named as left out
    expect(prompt.length).toBeLessThan(50_000);
    const review = fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)[0]!.body;
    expect(review.body).toContain("too large to read and was left out: `data/bomb.txt` (15.0 MB)");
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check.conclusion).toBe("success");
    expect(check.output.summary).toContain("`data/bomb.txt` (15.0 MB)");
  });

  it("a tree over WORKSPACE_MAX_MB is not checked out: the check run says why and no agent runs", async () => {
    fx = await FlowFixture.start(database.handle, {}, { env: { WORKSPACE_MAX_MB: "2" } });
    fx.remote.checkout("feature", true);
    fx.remote.commit({ "assets/fill.txt": "fill\n".repeat(MB) }); // 5 MB on disk
    const head = fx.remote.publish("feature", fx.pr);
    fx.app.scenario([{ role: "reviewer", answer: { summary: "never asked", findings: [], resolved: [] } }]);

    await fx.pullRequest("opened", head);

    expect(fx.app.agentCalls()).toHaveLength(0);
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check.conclusion).toBe("failure");
    expect(check.output.title).toBe("The pull request is over a size limit");
    expect(check.output.summary).toMatch(
      /would take 5\.0 MB on disk, more than the 2\.0 MB a workspace may \(WORKSPACE_MAX_MB\)/,
    );
    expect(fx.github.sent("POST", `/pulls/${fx.pr}/reviews`)).toHaveLength(0);
  });
});
