import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ClaudeCodeAgent } from "../../src/agents/claude/claude-code.js";
import { CodexAgent } from "../../src/agents/codex/codex.js";
import type { AgentSandbox } from "../../src/agents/sandbox/agent-sandbox.js";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import { UnconfinedSandbox } from "../../src/agents/sandbox/unconfined-sandbox.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

let server: FakeAnthropicServer;
afterEach(async () => server?.close());
afterAll(() => removeTempDirs());

beforeEach(async () => {
  server = await startFakeAnthropicServer();
});

/**
 * The `anthropic-beta` values of every model request the real CLI makes in a reviewer turn with a tool
 * call and its resume, and a fixer turn, as the fake model server receives them.
 */
async function betasOfTurns(sandbox: AgentSandbox, model: string): Promise<string[]> {
  const workspace = tempDir("nm-betas-ws-");
  writeFileSync(join(workspace, "app.ts"), "export const x = 1;\n");
  const agent = new ClaudeCodeAgent({
    homeDir: tempDir("nm-betas-home-"),
    apiKey: "sk-ant-test-0123456789abcdef",
    baseUrl: server.url,
    model,
    killGraceMs: 1000,
    sandbox,
  });
  const call = { cwd: workspace, timeoutMs: 40_000 };
  server.enqueue({ toolUse: { name: "Read", input: { file_path: join(workspace, "app.ts") } } }, { text: "{}" });
  const first = await agent.run({ ...call, prompt: "Review app.ts", role: "reviewer" });
  server.enqueue({ text: "{}" });
  await agent.run({ ...call, prompt: "Again", role: "reviewer", sessionId: first.sessionId });
  server.enqueue({ text: "{}" });
  await agent.run({ ...call, prompt: "Fix it", role: "fixer" });
  const posts = server.requests.splice(0).filter((r) => r.method === "POST");
  expect(posts.length).toBeGreaterThanOrEqual(4);
  return posts.map((r) => String(r.headers["anthropic-beta"] ?? ""));
}

describe("the anthropic-beta values of the pinned Claude Code pass the model proxy whole", () => {
  it.each(["claude-sonnet-4-5", "opus"])(
    "%s: the API behind the proxy sees every value the CLI sends on its own",
    async (model) => {
      const direct = await betasOfTurns(new UnconfinedSandbox(), model);
      const proxied = await betasOfTurns(new BubblewrapSandbox(), model);
      expect(direct.every((betas) => betas.includes("claude-code-20250219"))).toBe(true);
      expect(proxied).toEqual(direct);
    },
    180_000,
  );
});

describe("the x-codex-beta-features values of the pinned Codex pass the model proxy whole", () => {
  it("the API behind the proxy sees every value the CLI sends on its own", async () => {
    const openai = await startFakeOpenAIServer();
    const switches = async (sandbox: AgentSandbox) => {
      const cwd = tempDir("nm-switches-ws-");
      const agent = new CodexAgent({
        homeDir: tempDir("nm-switches-home-"),
        baseUrl: openai.baseUrl,
        apiKey: "sk-test-codex-0123456789",
        killGraceMs: 1000,
        sandbox,
      });
      const first = await agent.run({ prompt: "Review.", cwd, role: "reviewer", timeoutMs: 40_000 });
      await agent.run({ prompt: "Again.", cwd, role: "reviewer", timeoutMs: 40_000, sessionId: first.sessionId });
      const posts = openai.requests.splice(0).filter((r) => r.method === "POST");
      expect(posts.length).toBeGreaterThanOrEqual(2);
      return posts.map((r) => String(r.headers["x-codex-beta-features"] ?? ""));
    };
    try {
      const direct = await switches(new UnconfinedSandbox());
      expect(direct.every((values) => values !== "")).toBe(true);
      expect(await switches(new BubblewrapSandbox())).toEqual(direct);
    } finally {
      await openai.close();
    }
  }, 180_000);
});
