import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ClaudeCodeAgent } from "../../src/agents/claude/claude-code.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { inputText, startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { FlowFixture, LOOP_FINDING, numbered } from "../helpers/flow-fixture.js";
import { useFlowDatabase } from "../helpers/use-flow-database.js";

/**
 * One vendor checking another, with the real CLIs: Claude Code reviews (against a fake Anthropic server) and
 * Codex gives the second opinion (against a fake OpenAI server), each in the sandbox through the app's proxy.
 */

let fx: FlowFixture;
let anthropic: FakeAnthropicServer;
let openai: FakeOpenAIServer;
afterEach(async () => {
  await anthropic?.close();
  await openai?.close();
});
const database = useFlowDatabase(() => fx, { allowHost: "127.0.0.1" });

beforeEach(async () => {
  anthropic = await startFakeAnthropicServer();
  openai = await startFakeOpenAIServer();
  fx = FlowFixture.withoutApp({ configYaml: "review:\n  second_opinion: codex\n" });
  const claude = new ClaudeCodeAgent({
    homeDir: join(fx.dataDir, "agents"),
    apiKey: "sk-ant-flow-test",
    baseUrl: anthropic.url,
    killGraceMs: 1000,
  });
  await fx.startApp(database.handle, {
    agent: claude,
    env: { AGENT_TIMEOUT: "90s", OPENAI_API_KEY: "sk-openai-flow-test-0123", OPENAI_BASE_URL: openai.baseUrl },
    idleTimeoutMs: 240_000,
  });
});

const MISTAKEN = {
  path: "src/app.ts",
  line: 12,
  severity: "error",
  action: "ask-user",
  title: "Counter never reset",
  body: "The counter keeps its value between calls.",
};

describe("a Claude Code reviewer with a Codex second opinion", () => {
  it("the finding Codex confirms is posted, marked so; the one it refutes is a note with both views", async () => {
    const head = fx.push({ "src/app.ts": numbered("app", 30, { 11: "for (i = 0; i <= n; i++)", 12: "count = 0" }) });
    anthropic.enqueue({
      text: JSON.stringify({ summary: "Two problems.", findings: [LOOP_FINDING, MISTAKEN], resolved: [] }),
    });
    openai.enqueue({
      text: JSON.stringify({
        opinions: [
          { id: "NM-1", verdict: "confirm", reason: "i <= n reads one element past the end." },
          { id: "NM-2", verdict: "refute", reason: "line 12 sets count = 0 on every call." },
        ],
      }),
    });
    await fx.pullRequest("opened", head);

    // Codex saw both findings and the diff, in a session of its own
    const asked = openai
      .responsesBodies()
      .map((b) => inputText(b))
      .join("\n");
    expect(asked).toContain("Off-by-one in loop bound");
    expect(asked).toContain("Counter never reset");
    expect(asked).toContain("i <= n");

    expect(fx.github.reviews).toHaveLength(1);
    const comments = fx.github.reviews[0]!.comments;
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain("Off-by-one in loop bound");
    expect(comments[0]!.body).toContain(
      "**☑️ Confirmed by a second opinion** (codex, in a session of its own): i <= n reads one element past the end.",
    );
    const summary = fx.summary();
    expect(summary).toContain("**Refuted by a second opinion**");
    expect(summary).toContain("  - the reviewer: The counter keeps its value between calls.");
    expect(summary).toContain("  - codex: line 12 sets count = 0 on every call.");
    expect((await fx.findings()).map((f) => [f.number, f.status, f.secondOpinion])).toEqual([
      [1, "open", "confirmed"],
      [2, "note", "refuted"],
    ]);
    const turns = await fx.turns();
    expect(turns.map((t) => [t.role, t.trigger, t.agent, t.status])).toEqual([
      ["reviewer", "opened", "claude", "succeeded"],
      ["verifier", "second-opinion", "codex", "succeeded"],
    ]);
    expect(turns[1]!.tokensIn).toBeGreaterThan(0);
  }, 300_000);
});
