import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AgentError } from "../../../src/agents/agent-error.js";
import { GeminiAgent, geminiHomeFor, type GeminiAgentOptions } from "../../../src/agents/gemini/index.js";
import { SANDBOX_API_KEY_PLACEHOLDER } from "../../../src/agents/sandbox/bubblewrap-sandbox.js";
import type { AgentRunOptions } from "../../../src/agents/types.js";
import { loadRunAgentSession, saveRunAgentSession } from "../../../src/db/run-agent-sessions.js";
import { agentScope, RunSessions, type TurnRequest } from "../../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { contentsText, startFakeGeminiServer, type FakeGeminiServer } from "../../helpers/fake-gemini-server.js";
import { createRun } from "../../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-database.js";

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

  it("lets the fixer edit files of its workspace (auto_edit), and the edit lands on disk", async () => {
    server.enqueue(
      {
        call: { name: "write_file", args: { file_path: join(cwd, "app.ts"), content: "export const answer = 42;\n" } },
      },
      { text: '{"summary":"fixed","fixed":["NM-1"],"declined":[]}' },
    );
    const result = await agent().run(call({ role: "fixer", scope: "7-fixer", prompt: "Fix NM-1." }));
    expect(result.json).toEqual({ summary: "fixed", fixed: ["NM-1"], declined: [] });
    expect(readFileSync(join(cwd, "app.ts"), "utf8")).toBe("export const answer = 42;\n");
    const tools = JSON.stringify(server.modelCalls()[0]!.body!.tools);
    expect(tools).toContain('"write_file"');
    expect(tools).not.toContain('"run_shell_command"');
    // the tool's result went back to the model in the second request
    expect(contentsText(server.modelCalls()[1]!.body)).toContain("functionResponse");
  }, 120_000);

  it("refuses a write outside the workspace, and the model is told so", async () => {
    const outside = join(tempDir("nm-gemini-outside-"), "planted.txt");
    server.enqueue({ call: { name: "write_file", args: { file_path: outside, content: "pwned" } } }, { text: "done" });
    await agent().run(call({ role: "fixer", scope: "7-fixer", prompt: "Write outside." }));
    expect(existsSync(outside)).toBe(false);
    const answer = contentsText(server.modelCalls()[1]!.body);
    expect(answer).toContain("functionResponse");
    expect(answer).toMatch(/outside|not within|workspace director|denied|error/i);
  }, 120_000);

  it("resumes after the home is wiped, from the state RunSessions exported to run_agent_sessions", async () => {
    const db = database!;
    const { log } = captureLogger();
    const runId = await createRun(db.handle.db);
    const turn = (prompt: string): TurnRequest => ({
      trigger: "push",
      headSha: "e".repeat(40),
      prompt,
      cwd,
      timeoutMs: 60_000,
    });
    server.enqueue({ text: "first review" });
    const first = await new RunSessions({ db: db.handle.db, agent: agent(), log }).run(
      runId,
      "reviewer",
      turn("PUSH-ONE"),
    );
    expect(first.mode).toBe("started");
    expect((await loadRunAgentSession(db.handle.db, runId, "reviewer"))?.state).toBeTruthy();

    // another replica, or a redeploy with an empty disk: a new adapter and no home at all
    rmSync(homeDir, { recursive: true, force: true });
    server.enqueue({ text: "second review" });
    const second = await new RunSessions({ db: db.handle.db, agent: agent(), log }).run(
      runId,
      "reviewer",
      turn("PUSH-TWO"),
    );
    expect(second.mode).toBe("resumed");
    expect(second.result.sessionId).toBe(first.result.sessionId);
    const resumed = contentsText(server.modelCalls().at(-1)!.body);
    expect(resumed).toContain("PUSH-ONE");
    expect(resumed).toContain("first review");
    expect(chatFiles(geminiHomeFor(homeDir, agentScope(runId, "reviewer")))).toHaveLength(1);
  }, 180_000);

  it("falls back to a fresh session through RunSessions when the stored chat is garbage", async () => {
    const db = database!;
    const { log } = captureLogger();
    const runId = await createRun(db.handle.db);
    const turn = (prompt: string): TurnRequest => ({
      trigger: "push",
      headSha: "f".repeat(40),
      prompt,
      cwd,
      timeoutMs: 60_000,
    });
    server.enqueue({ text: "first review" });
    const sessions = new RunSessions({ db: db.handle.db, agent: agent(), log, retryBaseDelayMs: 1 });
    const first = await sessions.run(runId, "reviewer", turn("PUSH-ONE"));
    // both copies spoilt: the local chats file, and the state kept in run_agent_sessions
    const home = geminiHomeFor(homeDir, agentScope(runId, "reviewer"));
    const [chat] = chatFiles(home);
    const garbage = "not json at all\n\u0000garbage\n";
    writeFileSync(join(home, ".gemini", "tmp", chat!), garbage);
    const row = (await loadRunAgentSession(db.handle.db, runId, "reviewer"))!;
    const header = gunzipSync(row.state!).toString("utf8").split("\n")[0]!;
    await saveRunAgentSession(db.handle.db, {
      runId,
      role: "reviewer",
      agent: "gemini",
      sessionId: row.sessionId,
      state: gzipSync(`${header}\n${garbage}`),
    });

    server.enqueue({ text: "fresh review" });
    const second = await sessions.run(runId, "reviewer", turn("PUSH-TWO"));
    expect(second.mode).toBe("fallback");
    expect(second.fallbackReason).toMatch(/resume-failed/);
    expect(second.result.text).toBe("fresh review");
    expect(second.result.sessionId).toMatch(UUID);
    expect(second.result.sessionId).not.toBe(first.result.sessionId);
    expect(contentsText(server.modelCalls().at(-1)!.body)).not.toContain("PUSH-ONE");
    expect((await loadRunAgentSession(db.handle.db, runId, "reviewer"))?.sessionId).toBe(second.result.sessionId);
  }, 180_000);

  it("says resume-failed for an unknown session id, and never passes `latest` or an index to --resume", async () => {
    const unknown = agent().run(call({ sessionId: "11111111-2222-4333-8444-555555555555" }));
    await expect(unknown).rejects.toMatchObject({ kind: "resume-failed" });
    await expect(unknown).rejects.toThrow(/Error resuming session/);
    for (const id of ["latest", "1"]) {
      const error = await agent()
        .run(call({ sessionId: id }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AgentError);
      expect(error).toMatchObject({ kind: "resume-failed" });
    }
    expect(server.modelCalls()).toHaveLength(0);
  }, 120_000);

  it("classifies a model API that keeps failing as transient, with no key in the message", async () => {
    server.setDefault({ error: 503 });
    const error = (await agent()
      .run(call())
      .catch((e: unknown) => e)) as AgentError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.kind).toBe("transient");
    expect(error.message).not.toContain(API_KEY);
    // the CLI's own retries are capped (general.maxAttempts: 2)
    expect(server.modelCalls().length).toBeLessThanOrEqual(2);
  }, 120_000);

  it("refuses a request for another model at the proxy (the allow-list), and the turn fails saying so", async () => {
    const error = (await agent({ extraArgs: ["-m", "gemini-2.5-flash"] })
      .run(call())
      .catch((e: unknown) => e)) as AgentError;
    expect(error).toBeInstanceOf(AgentError);
    expect(error.message).toMatch(/gemini-2\.5-flash.*refused/);
    expect(server.modelCalls()).toHaveLength(0);
  }, 120_000);
});
