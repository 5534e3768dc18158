import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AgentError } from "../../src/agents/agent-error.js";
import { GeminiAgent, geminiHomeFor, type GeminiAgentOptions } from "../../src/agents/gemini/index.js";
import { SANDBOX_API_KEY_PLACEHOLDER } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import type { AgentRunOptions } from "../../src/agents/types.js";
import { loadRunAgentSession } from "../../src/db/run-agent-sessions.js";
import { agentScope, RunSessions, type TurnRequest } from "../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { contentsText, startFakeGeminiServer, type FakeGeminiServer } from "../helpers/fake-gemini-server.js";
import { createRun } from "../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";

const API_KEY = "AIza-test-gemini-Secret-0123456789";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: FakeGeminiServer;
let database: TestDatabase | undefined;
let homeDir: string;
let cwd: string;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
}, 120_000);

afterAll(async () => {
  await database?.dispose();
});

beforeEach(async () => {
  server = await startFakeGeminiServer();
  homeDir = tempDir("nm-gemini-home-");
  cwd = join(tempDir("nm-gemini-ws-"), "repo");
  mkdirSync(cwd);
  execFileSync("git", ["init", "-q", cwd]);
  writeFileSync(join(cwd, "app.ts"), "export const answer = 41;\n");
});

afterEach(async () => {
  await server.close();
  removeTempDirs();
});

function agent(extra: Partial<GeminiAgentOptions> = {}): GeminiAgent {
  return new GeminiAgent({ homeDir, baseUrl: server.baseUrl, apiKey: API_KEY, killGraceMs: 1000, ...extra });
}

function call(overrides: Partial<AgentRunOptions> = {}): AgentRunOptions {
  return { prompt: "Review this.", cwd, role: "reviewer", timeoutMs: 60_000, scope: "7-reviewer", ...overrides };
}

function chatFiles(home: string): string[] {
  const tmp = join(home, ".gemini", "tmp");
  if (!existsSync(tmp)) return [];
  return readdirSync(tmp).flatMap((slug) =>
    existsSync(join(tmp, slug, "chats")) ? readdirSync(join(tmp, slug, "chats")).map((f) => `${slug}/chats/${f}`) : [],
  );
}

describe("GeminiAgent against the real gemini CLI, in the sandbox", () => {
  it("reviews, then resumes the session on the next turn: the second request carries the first turn", async () => {
    const gemini = agent();
    server.enqueue({ text: '{"summary":"first look","findings":[]}', usage: { prompt: 1000, candidates: 20 } });
    const first = await gemini.run(call({ prompt: "FIRST-TURN review app.ts" }));
    expect(first.sessionId).toMatch(UUID);
    expect(first.resumed).toBe(false);
    expect(first.json).toEqual({ summary: "first look", findings: [] });
    expect(first.usage).toMatchObject({ tokensIn: 1000, tokensOut: 20, cacheReadTokens: 0 });
    // no cost from the CLI: the proxy prices what it measured (gemini-2.5-pro list prices)
    expect(first.usage.costUsd).toBeCloseTo((1000 * 1.25 + 20 * 10) / 1e6, 12);
    const [request] = server.modelCalls();
    expect(request!.path).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent");
    expect(request!.query).toBe("alt=sse");
    // the key is the app's, added by the proxy: inside the sandbox the CLI held a placeholder
    expect(request!.headers["x-goog-api-key"]).toBe(API_KEY);
    expect(request!.rawBody).not.toContain(SANDBOX_API_KEY_PLACEHOLDER);
    // the reviewer reads and searches; it has no edit, shell or web tool
    const tools = JSON.stringify(request!.body!.tools);
    expect(tools).toContain('"read_file"');
    for (const tool of ["write_file", "replace", "run_shell_command", "google_web_search", "web_fetch"])
      expect(tools).not.toContain(`"${tool}"`);
    expect(request!.body!.generationConfig).toMatchObject({ maxOutputTokens: 32_000 });
    const home = geminiHomeFor(homeDir, "7-reviewer");
    expect(chatFiles(home)).toEqual([
      expect.stringMatching(new RegExp(`^repo/chats/session-.*-${first.sessionId!.slice(0, 8)}\\.jsonl$`)),
    ]);

    server.enqueue({
      text: '{"summary":"second look","findings":[]}',
      usage: { prompt: 1500, candidates: 30, cached: 1000 },
    });
    const second = await gemini.run(call({ prompt: "SECOND-TURN what changed", sessionId: first.sessionId }));
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.resumed).toBe(true);
    expect(second.usage).toMatchObject({ tokensIn: 1500, tokensOut: 30, cacheReadTokens: 1000 });
    expect(second.usage.costUsd).toBeCloseTo((500 * 1.25 + 1000 * 0.125 + 30 * 10) / 1e6, 12);
    const resumed = contentsText(server.modelCalls()[1]!.body);
    expect(resumed).toContain("FIRST-TURN review app.ts");
    expect(resumed).toContain("first look");
    expect(resumed).toContain("SECOND-TURN what changed");
  }, 120_000);
});
