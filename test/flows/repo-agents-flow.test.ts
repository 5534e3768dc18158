import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inputText, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { FlowFixture, LOOP_FINDING, PR_APP } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * A repository choosing its reviewer's agent (`agents:` in .github/no-mistakes.yml): the app runs the fake
 * agent as the operator's; the repository names Codex (the real CLI, against a fake OpenAI server).
 */

let fx: FlowFixture;
let openai: FakeOpenAIServer;
afterEach(async () => {
  await openai?.close();
});
const database = useFlowDatabase(() => fx, { allowHost: "127.0.0.1" });
beforeEach(async () => {
  openai = await startFakeOpenAIServer();
});

const CONFIG = "agents:\n  reviewer: { agent: codex, model: gpt-5.5 }\n";
const REVIEW = { summary: "One off-by-one.", findings: [LOOP_FINDING], resolved: [] };

async function start(env: Record<string, string>): Promise<void> {
  fx = FlowFixture.withoutApp({ configYaml: CONFIG });
  await fx.startApp(database.handle, {
    env: { AGENT_TIMEOUT: "90s", OPENAI_API_KEY: "sk-openai-flow-test-0123", OPENAI_BASE_URL: openai.baseUrl, ...env },
    idleTimeoutMs: 120_000,
  });
}

describe("a repository's choice of agent per role", () => {
  it("with AGENTS_FROM_REPO=on, the review is Codex's, as the repository asked", async () => {
    await start({ AGENTS_FROM_REPO: "on" });
    openai.enqueue({ text: JSON.stringify(REVIEW) });
    await fx.open({ "src/app.ts": PR_APP }, []);
    expect(inputText(openai.responsesBodies()[0]!)).toContain("i <= n");
    expect(openai.responsesBodies()[0]!.model).toBe("gpt-5.5");
    expect(fx.app.agentCalls().filter((c) => c.role === "reviewer")).toHaveLength(0);
    expect((await fx.turns()).map((t) => [t.role, t.agent, t.status])).toEqual([["reviewer", "codex", "succeeded"]]);
    expect(fx.github.reviews).toHaveLength(1);
    expect(fx.github.reviews[0]!.comments[0]!.body).toContain("Off-by-one in loop bound");
  }, 180_000);

  it("without it, the operator's agent reviews and the review body says why the choice did not apply", async () => {
    await start({});
    await fx.open({ "src/app.ts": PR_APP }, [{ role: "reviewer", answer: REVIEW }]);
    expect(openai.responsesBodies()).toHaveLength(0);
    expect((await fx.turns()).map((t) => [t.role, t.agent])).toEqual([["reviewer", "fake"]]);
    expect(fx.github.reviews[0]!.body).toContain(
      "`agents.reviewer` names codex, but this app's operator has not let repositories choose agents (AGENTS_FROM_REPO=on does), so the operator's agent runs.",
    );
  }, 180_000);
});
