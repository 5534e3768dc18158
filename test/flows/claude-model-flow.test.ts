import { describe, expect, it } from "vitest";
import { useClaudeFlow } from "../helpers/claude-flow.js";
import { LOOP_BUG_APP, LOOP_FINDING } from "../helpers/flow-fixture.js";

/** The app's Claude adapter with AGENT_MODEL=claude-opus-4-1, which Claude Code 2.1.197 sends as claude-opus-4-8. */
const flow = useClaudeFlow({ model: "claude-opus-4-1" });

describe("a review with AGENT_MODEL=claude-opus-4-1 (real CLI in its sandbox, fake model API)", () => {
  it("passes the model proxy: the API is asked for claude-opus-4-8 and the finding is posted", async () => {
    const { fx, model } = flow;
    const head = fx.push({ "src/app.ts": LOOP_BUG_APP }, "first");
    model.enqueue({ text: JSON.stringify({ summary: "One off-by-one.", findings: [LOOP_FINDING], resolved: [] }) });

    await fx.pullRequest("opened", head);

    expect(model.mainCalls().map((body) => body.model)).toEqual(["claude-opus-4-8"]);
    expect(fx.onlyReview(head).comments[0].body).toContain("Off-by-one in loop bound");
    expect((await fx.turns()).map((t) => t.status)).toEqual(["succeeded"]);
  }, 120_000);

  it("a model the API refuses: the check run says which model was refused and which setting it was sent for", async () => {
    const { fx, model } = flow;
    // As the API answers a key that may not use the model.
    model.setResponder(({ body }) => ({ status: 404, errorType: "not_found_error", message: `model: ${body.model}` }));
    const head = fx.push({ "src/app.ts": LOOP_BUG_APP }, "first");

    await fx.pullRequest("opened", head);

    const refusal =
      'model "claude-opus-4-8" refused by the model API (404: model: claude-opus-4-8); the CLI sends it for AGENT_MODEL=claude-opus-4-1';
    const check = [...fx.github.checkRuns.values()].find((c) => c.head_sha === head)!;
    expect(check).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(check.output.title).toBe("The agent failed");
    expect(check.output.summary).toContain(refusal);
    const turns = await fx.turns();
    expect(turns.map((t) => t.status)).toEqual(["failed"]);
    expect(turns[0]!.error).toContain(refusal);
  }, 120_000);
});
