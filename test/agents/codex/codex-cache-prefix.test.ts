import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { CodexAgent } from "../../../src/agents/codex/codex.js";
import type { AgentRunOptions } from "../../../src/agents/types.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../../helpers/fake-openai-server.js";
import { featureWorkspace, type CommitIn } from "../../helpers/feature-workspace.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";

const T = 90_000;
let server: FakeOpenAIServer;
let homeDir: string;
let workspace: string;
let commit: CommitIn;

beforeEach(async () => {
  server = await startFakeOpenAIServer();
  homeDir = tempDir("nm-codex-prefix-home-");
  workspace = tempDir("nm-codex-prefix-ws-");
  commit = featureWorkspace(workspace);
});
afterEach(async () => {
  await server.close();
});
afterAll(() => removeTempDirs());

describe("a resumed Codex turn can be served from the provider's prompt cache", () => {
  it(
    "sends the previous turn's input again, item for item, as the start of the next one — after a new commit too",
    async () => {
      const codex = new CodexAgent({ homeDir, baseUrl: server.baseUrl, apiKey: "sk-codex-prefix", killGraceMs: 1000 });
      const call = (prompt: string, sessionId?: string): AgentRunOptions => ({
        prompt,
        cwd: workspace,
        role: "reviewer",
        timeoutMs: 60_000,
        sessionId,
      });
      server.enqueue({ text: '{"summary":"one","findings":[],"resolved":[]}' });
      const first = await codex.run(call("PUSH-1: review app.ts"));
      commit("app.ts", "export const a = 2;\n", "second commit subject");
      server.enqueue({ text: '{"summary":"two","findings":[],"resolved":[]}' });
      const second = await codex.run(call("PUSH-2: review the new commit", first.sessionId));
      expect(second.resumed).toBe(true);
      commit("b.ts", "export const b = 3;\n", "third commit subject");
      server.enqueue({ text: '{"summary":"three","findings":[],"resolved":[]}' });
      await codex.run(call("PUSH-3", first.sessionId));

      const [one, two, three] = server.responsesBodies();
      expect(three).toBeDefined();
      // Everything but the conversation, less `client_metadata` (turn and window ids: request metadata the
      // model never reads, so not part of the cached prompt).
      const prefixOf = (b: typeof one) => {
        const { input: _input, client_metadata: _metadata, ...rest } = b as Record<string, unknown>;
        return JSON.stringify(rest);
      };
      for (const [before, after] of [
        [one!, two!],
        [two!, three!],
      ] as const) {
        // instructions, tools, model and options: the same bytes
        expect(prefixOf(after)).toBe(prefixOf(before));
        const previous = (before.input ?? []).map((item) => JSON.stringify(item));
        const next = (after.input ?? []).slice(0, previous.length).map((item) => JSON.stringify(item));
        expect(after.input!.length).toBeGreaterThan(previous.length);
        expect(next).toEqual(previous);
      }
    },
    T,
  );
});
