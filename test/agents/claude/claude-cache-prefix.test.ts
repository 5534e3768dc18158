import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ClaudeCodeAgent } from "../../../src/agents/claude/claude-code.js";
import type { AgentRunOptions } from "../../../src/agents/types.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "../../helpers/fake-anthropic-server.js";
import { featureWorkspace, type CommitIn } from "../../helpers/feature-workspace.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

const T = 60_000;
let server: FakeAnthropicServer;
let home: string;
let workspace: string;
let commit: CommitIn;

beforeEach(async () => {
  server = await startFakeAnthropicServer();
  home = tempDir("nm-claude-prefix-home-");
  workspace = tempDir("nm-claude-prefix-ws-");
  commit = featureWorkspace(workspace);
});
afterEach(async () => {
  await server.close();
});
afterAll(() => removeTempDirs());

describe("a resumed Claude Code turn can be served from the provider's prompt cache", () => {
  it(
    "sends the previous turn's request again, byte for byte, as the start of the next one — after a new commit too",
    async () => {
      const claude = new ClaudeCodeAgent({
        homeDir: home,
        apiKey: "sk-ant-prefix",
        baseUrl: server.url,
        killGraceMs: 1000,
      });
      const call = (prompt: string, sessionId?: string): AgentRunOptions => ({
        prompt,
        cwd: workspace,
        role: "reviewer",
        timeoutMs: 30_000,
        sessionId,
      });
      server.enqueue({ text: '{"summary":"one","findings":[],"resolved":[]}' });
      const first = await claude.run(call("PUSH-1: review app.ts"));
      commit("app.ts", "export const a = 2;\n", "second commit subject that changes git status");
      server.enqueue({ text: '{"summary":"two","findings":[],"resolved":[]}' });
      const second = await claude.run(call("PUSH-2: review the new commit", first.sessionId));
      expect(second.resumed).toBe(true);
      commit("b.ts", "export const b = 3;\n", "third commit subject");
      server.enqueue({ text: '{"summary":"three","findings":[],"resolved":[]}' });
      await claude.run(call("PUSH-3", first.sessionId));

      const [one, two, three] = server.mainCalls();
      expect(three).toBeDefined();
      for (const [before, after] of [
        [one!, two!],
        [two!, three!],
      ] as const) {
        // what comes before the conversation: tools, system prompt, model — the same bytes
        expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
        expect(JSON.stringify(after.system)).toBe(JSON.stringify(before.system));
        expect(after.model).toBe(before.model);
        // the conversation so far, then the new turn
        expect(after.messages.length).toBeGreaterThan(before.messages.length);
        const previous = before.messages.map((m) => JSON.stringify(asBlocks(m)));
        const next = after.messages.slice(0, before.messages.length).map((m) => JSON.stringify(asBlocks(m)));
        expect(next).toEqual(previous);
      }
      expect(JSON.stringify(one!.system)).not.toContain("first commit subject");
    },
    T,
  );
});

/**
 * A message as the API reads it: string content is one text block, and `cache_control` (where the CLI asks
 * for a cache breakpoint: on the newest message, so it moves with the conversation) is not content. The
 * CLI sends the newest user message as blocks with a breakpoint and, once it is history, as a string.
 */
function asBlocks(message: { role: string; content: unknown }): unknown {
  const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
  return { role: message.role, content: stripCacheControl(content) };
}

function stripCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripCacheControl);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== "cache_control")
        .map(([k, v]) => [k, stripCacheControl(v)]),
    );
  return value;
}
