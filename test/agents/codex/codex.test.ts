import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AgentError } from "../../../src/agents/agent-error.js";
import { CodexAgent, codexHomeFor, type CodexAgentOptions } from "../../../src/agents/codex/codex.js";
import { classifyCodexFailure, parseCodexEvents } from "../../../src/agents/codex/codex-events.js";
import { UnconfinedSandbox } from "../../../src/agents/sandbox/unconfined-sandbox.js";
import type { AgentRunOptions } from "../../../src/agents/types.js";
import { loadRunAgentSession, saveRunAgentSession } from "../../../src/db/run-agent-sessions.js";
import { agentScope, RunSessions, type TurnRequest } from "../../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { inputText, startFakeOpenAIServer, type FakeOpenAIServer } from "../../helpers/fake-openai-server.js";
import { createRun } from "../../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-database.js";

const API_KEY = "sk-test-codex-Secret-0123456789";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: FakeOpenAIServer;
let database: TestDatabase | undefined;

/** One PGlite database for the RunSessions tests (each makes its own run). */
async function sharedDatabase(): Promise<TestDatabase> {
  database ??= await createTestDatabase("pglite");
  return database;
}

// PGlite's first start can take many seconds on a busy machine: it is paid here, not in a test.
beforeAll(async () => {
  await sharedDatabase();
}, 120_000);

afterAll(async () => {
  await database?.dispose();
});
let homeDir: string;
let cwd: string;

beforeEach(async () => {
  server = await startFakeOpenAIServer();
  homeDir = tempDir("nm-codex-home-");
  cwd = tempDir("nm-codex-ws-");
});

afterEach(async () => {
  await server.close();
  removeTempDirs();
});

function agent(extra: Partial<CodexAgentOptions> = {}): CodexAgent {
  return new CodexAgent({ homeDir, baseUrl: server.baseUrl, apiKey: API_KEY, killGraceMs: 1000, ...extra });
}

function call(overrides: Partial<AgentRunOptions> & { scope?: string } = {}): AgentRunOptions {
  return { prompt: "Review this.", cwd, role: "reviewer", timeoutMs: 30_000, ...overrides };
}

function rolloutFiles(home: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${rel}${entry.name}/`);
      else out.push(`${rel}${entry.name}`);
    }
  };
  walk(join(home, "sessions"), "sessions/");
  return out;
}

/** What the CLI's tools returned in the turn (the tool outputs of the last model request). */
function toolOutputs(): string {
  const input = server.responsesBodies().at(-1)!.input ?? [];
  return input
    .filter((item) => typeof item.type === "string" && item.type.endsWith("_call_output"))
    .map((item) => String(item.output))
    .join("\n");
}

/** Live processes whose command line contains `marker` (scans /proc). */
function processesMatching(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ");
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (cmdline.includes(marker) && !/\) Z /.test(stat)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

describe("CodexAgent against the real codex CLI", () => {
  it("starts a thread (prompt on stdin, past the argv limit) and resumes it with the first turn's messages", async () => {
    const codex = agent();
    const bigPrompt = `FIRST-PROMPT ${"x".repeat(200 * 1024)} END-OF-PROMPT`;
    server.enqueue({ text: "first answer", usage: { input: 100, output: 10 } });
    const first = await codex.run(call({ prompt: bigPrompt, scope: "4242" }));
    expect(first.sessionId).toMatch(UUID);
    expect(first.resumed).toBe(false);
    expect(first.text).toBe("first answer");
    expect(first.usage).toMatchObject({ tokensIn: 100, tokensOut: 10 });
    // codex reports no cost: the model proxy prices what it measured (gpt-5 list prices)
    expect(first.usage.costUsd).toBeCloseTo((100 * 1.25 + 10 * 10) / 1e6, 12);
    expect(inputText(server.responsesBodies()[0]!)).toContain("END-OF-PROMPT");
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    // CODEX_HOME is per scope; the rollout is named after the thread.
    const home = codexHomeFor(homeDir, "4242");
    expect(home).toBe(join(homeDir, "codex", "4242"));
    const rollouts = rolloutFiles(home);
    expect(rollouts).toHaveLength(1);
    expect(rollouts[0]).toMatch(new RegExp(`^sessions/\\d{4}/\\d{2}/\\d{2}/rollout-.*-${first.sessionId}\\.jsonl$`));

    server.enqueue({ text: '{"summary":"still fine","findings":[]}', usage: { input: 300, output: 30 } });
    const second = await codex.run(call({ prompt: "SECOND-PROMPT", sessionId: first.sessionId, scope: "4242" }));
    expect(second.resumed).toBe(true);
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.json).toEqual({ summary: "still fine", findings: [] });
    const resumedInput = inputText(server.responsesBodies().at(-1)!);
    expect(resumedInput).toContain("FIRST-PROMPT");
    expect(resumedInput).toContain("first answer");
    expect(resumedInput).toContain("SECOND-PROMPT");
    expect(second.usage).toMatchObject({ tokensIn: 300, tokensOut: 30 });
  });

  it("reports per-turn usage deltas on a resumed thread (codex reports the thread's running total)", async () => {
    const codex = agent();
    writeFileSync(join(cwd, "a.txt"), "one\n");
    server.enqueue({ text: "turn one", usage: { input: 1000, output: 100 } });
    const one = await codex.run(call({ role: "fixer" }));
    expect(one.usage).toMatchObject({ tokensIn: 1000, tokensOut: 100 });

    // Two model requests in this turn (a tool call, then the answer): their sum is the turn's usage.
    server.enqueue(
      {
        applyPatch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch\n",
        usage: { input: 50, output: 5 },
      },
      { text: "turn two", usage: { input: 70, output: 7 } },
    );
    const two = await codex.run(call({ role: "fixer", sessionId: one.sessionId }));
    expect(two.resumed).toBe(true);
    expect(two.usage).toMatchObject({ tokensIn: 120, tokensOut: 12 });

    server.enqueue({ text: "turn three", usage: { input: 3, output: 1 } });
    const three = await codex.run(call({ role: "fixer", sessionId: one.sessionId }));
    expect(three.usage).toMatchObject({ tokensIn: 3, tokensOut: 1 });
  });

  it("applies a fixer edit in the workspace through codex's own apply_patch tool", async () => {
    writeFileSync(join(cwd, "greet.ts"), 'export const greeting = "helo";\n');
    server.enqueue(
      {
        applyPatch:
          '*** Begin Patch\n*** Update File: greet.ts\n@@\n-export const greeting = "helo";\n+export const greeting = "hello";\n*** Add File: notes/NEW.md\n+added by the fixer\n*** End Patch\n',
      },
      { text: "Fixed the typo." },
    );
    const result = await agent().run(call({ role: "fixer", prompt: "Fix the typo." }));
    expect(result.text).toBe("Fixed the typo.");
    expect(readFileSync(join(cwd, "greet.ts"), "utf8")).toBe('export const greeting = "hello";\n');
    expect(readFileSync(join(cwd, "notes/NEW.md"), "utf8")).toBe("added by the fixer\n");
    expect(inputText(server.responsesBodies().at(-1)!)).toContain("Success. Updated the following files");
  });

  it("keeps the reviewer read-only: apply_patch and shell writes are refused", async () => {
    server.enqueue(
      { applyPatch: "*** Begin Patch\n*** Add File: patched.txt\n+nope\n*** End Patch\n" },
      { shell: "echo nope > shell.txt" },
      { shell: 'echo "KEY=${OPENAI_API_KEY:-none}"' },
      { text: "Looked only." },
    );
    const result = await agent().run(call({ role: "reviewer" }));
    expect(result.text).toBe("Looked only.");
    expect(existsSync(join(cwd, "patched.txt"))).toBe(false);
    expect(existsSync(join(cwd, "shell.txt"))).toBe(false);
    const last = inputText(server.responsesBodies().at(-1)!);
    // Both writes hit the sandbox's read-only mount of the workspace.
    expect(last).toMatch(/Failed to write file [^"]*patched\.txt/);
    expect(last).toMatch(/shell\.txt: Read-only file system/);
    // Commands the model runs never see the API key.
    expect(last).toContain("KEY=none");
    expect(last).not.toContain(API_KEY);
  });

  it("with AGENT_SANDBOX=off and its homes under the temp dir, codex's own sandbox runs the tools: the fixer's edits land, the reviewer's writes are refused", async () => {
    // homeDir and cwd are under os.tmpdir() (/tmp), the CLI's temp dir too: codex refuses to put its
    // codex-linux-sandbox alias in a CODEX_HOME under its temp dir, and every tool call then failed
    // with "bwrap: execvp codex-linux-sandbox: No such file or directory".
    const codex = agent({ sandbox: new UnconfinedSandbox() });
    const home = codexHomeFor(homeDir, "off-fixer");
    writeFileSync(join(cwd, "greet.ts"), 'export const greeting = "helo";\n');
    server.enqueue(
      {
        applyPatch:
          '*** Begin Patch\n*** Update File: greet.ts\n@@\n-export const greeting = "helo";\n+export const greeting = "hello";\n*** End Patch\n',
      },
      { shell: 'echo from-shell > shell.txt; echo t > "$TMPDIR/scratch" && echo TMPDIR-WRITABLE' },
      // The home holds codex's helper aliases and its .env: out of the fixer's reach, though under /tmp.
      { shell: `echo LD_PRELOAD=/x > ${join(home, ".env")}; touch ${join(home, "planted")}` },
      { text: "Fixed." },
    );
    const fixed = await codex.run(call({ role: "fixer", scope: "off-fixer" }));
    expect(fixed.text).toBe("Fixed.");
    const fixerSaw = toolOutputs();
    expect(fixerSaw).not.toContain("codex-linux-sandbox");
    expect(readFileSync(join(cwd, "greet.ts"), "utf8")).toBe('export const greeting = "hello";\n');
    expect(readFileSync(join(cwd, "shell.txt"), "utf8")).toBe("from-shell\n");
    expect(fixerSaw).toContain("TMPDIR-WRITABLE");
    expect(fixerSaw).toMatch(/\.env: Read-only file system/);
    expect(existsSync(join(home, ".env"))).toBe(false);
    expect(existsSync(join(home, "planted"))).toBe(false);

    writeFileSync(join(cwd, "readme.txt"), "READ-BY-THE-REVIEWER\n");
    server.enqueue(
      { shell: "cat readme.txt" },
      { applyPatch: "*** Begin Patch\n*** Add File: patched.txt\n+nope\n*** End Patch\n" },
      { shell: "echo nope > shell2.txt" },
      { text: "Looked only." },
    );
    const reviewed = await codex.run(call({ role: "reviewer", scope: "off-reviewer" }));
    expect(reviewed.text).toBe("Looked only.");
    const reviewerSaw = toolOutputs();
    expect(reviewerSaw).not.toContain("codex-linux-sandbox");
    expect(reviewerSaw).toContain("READ-BY-THE-REVIEWER");
    expect(existsSync(join(cwd, "patched.txt"))).toBe(false);
    expect(existsSync(join(cwd, "shell2.txt"))).toBe(false);
    expect(reviewerSaw).toMatch(/shell2\.txt: Read-only file system/);
  });

  it("falls back to a fresh thread through RunSessions when the stored thread id (a UUID) is unknown", async () => {
    const db = await sharedDatabase();
    const { log } = captureLogger();
    const runId = await createRun(db.handle.db);
    const bogus = randomUUID();
    await saveRunAgentSession(db.handle.db, { runId, role: "reviewer", agent: "codex", sessionId: bogus, state: null });
    const sessions = new RunSessions({ db: db.handle.db, agent: agent(), log, retryBaseDelayMs: 1 });
    const turn: TurnRequest = {
      trigger: "push",
      headSha: "c".repeat(40),
      prompt: "Review the push.",
      cwd,
      timeoutMs: 30_000,
    };
    server.enqueue({ text: "fresh review" });
    const outcome = await sessions.run(runId, "reviewer", turn);
    expect(outcome.mode).toBe("fallback");
    expect(outcome.fallbackReason).toMatch(/resume-failed.*no rollout found/);
    expect(outcome.result.text).toBe("fresh review");
    expect(outcome.result.sessionId).toMatch(UUID);
    expect(outcome.result.sessionId).not.toBe(bogus);
    const row = await loadRunAgentSession(db.handle.db, runId, "reviewer");
    expect(row?.sessionId).toBe(outcome.result.sessionId);
    expect(row?.state).toBeTruthy();
  });

  it("detects a non-UUID stored id (codex silently starts a new thread) as not resumed", async () => {
    const codex = agent();
    server.enqueue({ text: "new thread" });
    const direct = await codex.run(call({ sessionId: "not-a-thread-name" }));
    expect(direct.resumed).toBe(false);
    expect(direct.sessionId).toMatch(UUID);

    const db = await sharedDatabase();
    const { log } = captureLogger();
    const runId = await createRun(db.handle.db);
    await saveRunAgentSession(db.handle.db, {
      runId,
      role: "reviewer",
      agent: "codex",
      sessionId: "stale-name",
      state: null,
    });
    const sessions = new RunSessions({ db: db.handle.db, agent: codex, log, retryBaseDelayMs: 1 });
    const outcome = await sessions.run(runId, "reviewer", {
      trigger: "push",
      headSha: "d".repeat(40),
      prompt: "Review.",
      cwd,
      timeoutMs: 30_000,
    });
    expect(outcome.mode).toBe("fallback");
    expect(outcome.fallbackReason).toMatch(/started a new session instead of resuming stale-name/);
    expect((await loadRunAgentSession(db.handle.db, runId, "reviewer"))?.sessionId).toBe(outcome.result.sessionId);
  });

  it("resumes after CODEX_HOME is wiped, from the state RunSessions exported", async () => {
    const db = await sharedDatabase();
    const { log } = captureLogger();
    const runId = await createRun(db.handle.db);
    const turn = (prompt: string): TurnRequest => ({
      trigger: "push",
      headSha: "e".repeat(40),
      prompt,
      cwd,
      timeoutMs: 30_000,
    });
    server.enqueue({ text: "first review" });
    const first = await new RunSessions({ db: db.handle.db, agent: agent(), log }).run(
      runId,
      "reviewer",
      turn("PUSH-ONE"),
    );
    expect(first.mode).toBe("started");
    expect((await loadRunAgentSession(db.handle.db, runId, "reviewer"))?.state).toBeTruthy();

    // A redeploy with an empty disk: a new process (new adapter) and no CODEX_HOME at all.
    rmSync(homeDir, { recursive: true, force: true });
    server.enqueue({ text: "second review" });
    const second = await new RunSessions({ db: db.handle.db, agent: agent(), log }).run(
      runId,
      "reviewer",
      turn("PUSH-TWO"),
    );
    expect(second.mode).toBe("resumed");
    expect(second.result.sessionId).toBe(first.result.sessionId);
    const input = inputText(server.responsesBodies().at(-1)!);
    expect(input).toContain("PUSH-ONE");
    expect(input).toContain("first review");
    expect(rolloutFiles(codexHomeFor(homeDir, agentScope(runId, "reviewer")))).toHaveLength(1);
  });

  it("exports and imports a scoped session (installation CODEX_HOME) directly", async () => {
    server.enqueue({ text: "scoped first" });
    const first = await agent().run(call({ scope: "77", prompt: "SCOPED-ONE" }));
    const state = await agent().portable.exportSession(first.sessionId!, cwd, "77");
    expect(state).toBeDefined();
    expect(await agent().portable.exportSession(first.sessionId!, cwd, "78")).toBeUndefined();
    rmSync(homeDir, { recursive: true, force: true });
    const fresh = agent();
    await fresh.portable.importSession(first.sessionId!, cwd, state!, "77");
    expect(rolloutFiles(codexHomeFor(homeDir, "77"))).toHaveLength(1);
    server.enqueue({ text: "scoped second" });
    const second = await fresh.run(call({ scope: "77", sessionId: first.sessionId, prompt: "SCOPED-TWO" }));
    expect(second.resumed).toBe(true);
    expect(inputText(server.responsesBodies().at(-1)!)).toContain("SCOPED-ONE");
  });

  it("kills the whole process tree on timeout", async () => {
    // The tool command keeps running after codex yields back to the model (unified exec), then the
    // model hangs: at the timeout, codex, its sandbox (bwrap, own sessions) and the command must all go.
    const marker = `${300 + Math.floor(Math.random() * 600)}.${Date.now() % 100000}`;
    server.enqueue({ shell: `sleep ${marker}`, yieldTimeMs: 300 }, { hang: true });
    const started = Date.now();
    const running = agent()
      .run(call({ role: "fixer", timeoutMs: 6000 }))
      .catch((e: unknown) => e);
    let seenAlive = 0;
    while (Date.now() - started < 5500 && seenAlive === 0) {
      if (server.responsesBodies().length >= 2) seenAlive = processesMatching(`sleep ${marker}`).length;
      await sleep(100);
    }
    expect(seenAlive).toBeGreaterThan(0);
    const error = await running;
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).kind).toBe("timeout");
    await sleep(300);
    expect(processesMatching(`sleep ${marker}`)).toEqual([]);
    expect(processesMatching(cwd)).toEqual([]);
  });

  it("is cancelled by its signal", async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1500);
    const error = await agent()
      .run(call({ signal: controller.signal }))
      .catch((e: unknown) => e);
    expect((error as AgentError).kind).toBe("cancelled");
  });

  it("classifies a rate limit as transient and never leaks the API key", async () => {
    const body = JSON.stringify({
      error: {
        message: `Rate limit reached for key ${API_KEY}`,
        type: "rate_limit_exceeded",
        code: "rate_limit_exceeded",
      },
    });
    server.setDefault({ error: 429, body });
    const error = await agent()
      .run(call())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).kind).toBe("transient");
    expect((error as AgentError).message).toMatch(/429/);
    expect((error as AgentError).message).not.toContain(API_KEY);
  });

  it("classifies an auth failure as other, with the key redacted", async () => {
    server.setDefault({
      error: 401,
      body: JSON.stringify({
        error: {
          message: `Incorrect API key provided: ${API_KEY}`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      }),
    });
    const error = await agent()
      .run(call())
      .catch((e: unknown) => e);
    expect((error as AgentError).kind).toBe("other");
    expect((error as AgentError).message).not.toContain(API_KEY);
  });

  it("reports a missing binary as a spawn failure", async () => {
    const error = await agent({ cli: join(homeDir, "no-such-codex") })
      .run(call())
      .catch((e: unknown) => e);
    expect((error as AgentError).kind).toBe("spawn");
  });
});

describe("codex output reading", () => {
  it("reads thread, final message, usage and failures from the JSON lines", () => {
    const events = parseCodexEvents(
      [
        '{"type":"thread.started","thread_id":"t-1"}',
        "not json",
        '{"type":"error","message":"Reconnecting... 1/5 (stream disconnected)"}',
        '{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"ls"}}',
        '{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"first"}}',
        '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"last"}}',
        '{"type":"turn.completed","usage":{"input_tokens":7,"cached_input_tokens":2,"output_tokens":3}}',
      ].join("\n"),
    );
    expect(events).toMatchObject({
      threadId: "t-1",
      finalText: "last",
      usage: { input: 7, output: 3 },
      turnCompleted: true,
      unreadableLines: 1,
    });
    expect(parseCodexEvents('{"type":"turn.failed","error":{"message":"boom"}}').turnFailed).toBe("boom");
  });

  it("classifies failure messages", () => {
    expect(
      classifyCodexFailure(
        "Error: thread/resume: thread/resume failed: no rollout found for thread id x (code -32600)",
      ),
    ).toBe("resume-failed");
    expect(classifyCodexFailure("exceeded retry limit, last status: 429 Too Many Requests")).toBe("transient");
    expect(classifyCodexFailure("unexpected status 503 Service Unavailable")).toBe("transient");
    expect(classifyCodexFailure("stream disconnected before completion")).toBe("transient");
    expect(classifyCodexFailure("unexpected status 401 Unauthorized: bad key")).toBe("other");
    expect(classifyCodexFailure("wrote 500 bytes then failed")).toBe("other");
  });
});
