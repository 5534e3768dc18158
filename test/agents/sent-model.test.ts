import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AgentError } from "../../src/agents/agent-error.js";
import { ClaudeCodeAgent, type ClaudeCodeAgentOptions } from "../../src/agents/claude/claude-code.js";
import { CodexAgent } from "../../src/agents/codex/codex.js";
import type { SandboxedCall, SandboxedResult } from "../../src/agents/sandbox/agent-sandbox.js";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import { listTurns } from "../../src/db/turns.js";
import { RunSessions } from "../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { startFakeOpenAIServer } from "../helpers/fake-openai-server.js";
import { createRun } from "../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

/** A real CLI call here takes a few seconds; a probe one or two more. */
const T = 90_000;

/**
 * What Claude Code 2.1.197 sends for a configured name, measured against a fake model server (first
 * request and resume alike). A CLI upgrade that changes it fails here: the app learns the new id by
 * itself, but this table, the prices and docs/security.md should follow.
 */
const CLAUDE_SENDS: Array<[configured: string, sent: string]> = [
  ["claude-opus-4-1", "claude-opus-4-8"],
  ["claude-opus-4-0", "claude-opus-4-8"],
  ["claude-opus-4-1-20250805", "claude-opus-4-8"],
  ["opus", "claude-opus-4-8"],
  ["sonnet", "claude-sonnet-5"],
  ["haiku", "claude-haiku-4-5-20251001"],
  ["claude-sonnet-4-5", "claude-sonnet-4-5"],
  ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929"],
  ["claude-3-5-haiku-latest", "claude-3-5-haiku-latest"],
  ["claude-made-up-model", "claude-made-up-model"],
];

let server: FakeAnthropicServer;
let home: string;
let workspace: string;
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
}, 120_000);
afterAll(async () => {
  await database.dispose();
  removeTempDirs();
});
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  home = tempDir("nm-sent-home-");
  workspace = tempDir("nm-sent-ws-");
  writeFileSync(join(workspace, "app.ts"), "export const greeting = 'hi';\n");
});
afterEach(async () => {
  await server.close();
});

function claude(model: string, extra: Partial<ClaudeCodeAgentOptions> = {}): ClaudeCodeAgent {
  return new ClaudeCodeAgent({
    homeDir: home,
    apiKey: "sk-ant-test-0123456789",
    baseUrl: server.url,
    model,
    killGraceMs: 1000,
    ...extra,
  });
}

const review = () => ({ prompt: "Review app.ts.", cwd: workspace, role: "reviewer" as const, timeoutMs: 60_000 });

/** The models the fake upstream was asked for, in order. */
const upstreamModels = () =>
  server.requests.filter((r) => r.method === "POST").map((r) => (r.body as { model?: string }).model);

describe("the id Claude Code sends for a configured model (the real CLI asked)", () => {
  it(
    "is learnt from the CLI itself, for every name measured",
    async () => {
      const learnt: Array<[string, string]> = [];
      for (const [configured] of CLAUDE_SENDS)
        learnt.push([configured, (await claude(configured).resolveModel()).sent]);
      expect(learnt).toEqual(CLAUDE_SENDS);
    },
    T * 2,
  );

  it("a CLI that asks no model cannot say: resolving the model, and so every turn, fails with why", async () => {
    const error = await claude("claude-opus-4-1", { cli: "/bin/true" })
      .resolveModel()
      .then(
        () => undefined,
        (e: unknown) => e as AgentError,
      );
    expect(error).toMatchObject({
      kind: "spawn",
      message:
        'claude could not be asked which model id it sends for "claude-opus-4-1": it made no model request (exit 0)',
    });
  });

  it.each(["claude-opus-4-1", "opus", "haiku"])(
    "AGENT_MODEL=%s: a turn and its resume pass the proxy, the upstream sees the id sent, priced as that model",
    async (configured) => {
      const sent = CLAUDE_SENDS.find(([name]) => name === configured)![1];
      const agent = claude(configured);
      const first = await agent.run(review());
      const second = await agent.run({ ...review(), prompt: "Again.", sessionId: first.sessionId });
      expect(second.resumed).toBe(true);
      expect(upstreamModels()).toEqual([sent, sent]);
      // The fake answers 100 tokens in and 20 out; the proxy's meter prices them as the model sent.
      const perMillion = { "claude-opus-4-8": [5, 25], "claude-haiku-4-5-20251001": [1, 5] }[sent]!;
      expect(first.usage.costUsd).toBeCloseTo((100 * perMillion[0]! + 20 * perMillion[1]!) / 1e6, 9);
    },
    T,
  );

  it(
    "a model the model API refuses fails the turn with both names, and the turn's row says so",
    async () => {
      // As the API answers a model it does not serve (or the key may not use).
      server.setResponder(({ body }) => ({
        status: 404,
        errorType: "not_found_error",
        message: `model: ${body.model}`,
      }));
      const { log } = captureLogger();
      const sessions = new RunSessions({ db: database.handle.db, agent: claude("claude-opus-4-1"), log });
      const runId = await createRun(database.handle.db);
      const error = await sessions
        .run(runId, "reviewer", { trigger: "push", headSha: "c".repeat(40), ...review() })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      const expected =
        'model "claude-opus-4-8" refused by the model API (404: model: claude-opus-4-8); the CLI sends it for AGENT_MODEL=claude-opus-4-1';
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).message).toContain(`claude failed: ${expected}`);
      const [turn] = await listTurns(database.handle.db, runId);
      expect(turn).toMatchObject({ status: "failed" });
      expect(turn!.error).toContain(expected);
    },
    T,
  );

  it(
    "a model the proxy refuses fails the turn with its refusal, never 'Failed to authenticate'",
    async () => {
      // The policy the app built before it knew the id the CLI sends: the configured name alone.
      class ConfiguredNameOnly extends BubblewrapSandbox {
        override run(call: SandboxedCall): Promise<SandboxedResult> {
          const model = call.model!;
          return super.run({ ...call, model: { ...model, policy: { ...model.policy, models: ["claude-opus-4-1"] } } });
        }
      }
      const error = await claude("claude-opus-4-1", { sandbox: new ConfiguredNameOnly() })
        .run(review())
        .then(
          () => undefined,
          (e: unknown) => e as AgentError,
        );
      expect(error?.message).toContain(
        'claude failed: model "claude-opus-4-8" refused: the app allows claude-opus-4-1 (AGENT_MODEL=claude-opus-4-1)',
      );
      // What the CLI itself printed: the proxy's words, after the API status it answered.
      expect(error?.message).toMatch(/API Error: 400 no-mistakes model proxy: model "claude-opus-4-8" refused/);
      expect(error?.message).not.toContain("Failed to authenticate");
      expect(error?.kind).toBe("other");
      expect(server.requests).toEqual([]); // nothing reached the model API
    },
    T,
  );
});

describe("the id Codex sends for a configured model (the real CLI asked)", () => {
  it(
    "is the configured slug as it is: known, unknown, and one whose catalogue entry names an upgrade",
    async () => {
      const openai = await startFakeOpenAIServer();
      try {
        for (const model of ["gpt-5.5", "gpt-5", "gpt-5.6-sol", "made-up-model"]) {
          const codex = new CodexAgent({ homeDir: home, apiKey: "sk-test-0123456789", baseUrl: openai.baseUrl, model });
          expect((await codex.resolveModel()).sent).toBe(model);
          await codex.run({ ...review(), scope: model.replace(/\W/g, "_") });
          expect(openai.responsesBodies().at(-1)!.model).toBe(model);
        }
      } finally {
        await openai.close();
      }
    },
    T * 2,
  );
});
