import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentError } from "../../../src/agents/agent-error.js";
import { FakeAgent } from "../../../src/agents/fake/fake.js";
import type { Agent, AgentResult, AgentRunOptions } from "../../../src/agents/types.js";
import { listRunAgentSessions, loadRunAgentSession, saveRunAgentSession } from "../../../src/db/run-agent-sessions.js";
import { updateRun } from "../../../src/db/runs.js";
import { listTurns } from "../../../src/db/turns.js";
import { RunSessions, type TurnRequest } from "../../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { createRun } from "../../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../helpers/test-database.js";

const kinds = await databaseKinds();

interface LogLine {
  role: string;
  sessionAsked: string | null;
  sessionReturned: string;
  resumed: boolean;
  turnsInSession: number;
  prompt: string;
}

function scenario(dir: string, steps: unknown[]): string {
  const path = join(dir, "scenario.json");
  writeFileSync(path, JSON.stringify({ steps }));
  return path;
}

function agentLog(path: string): LogLine[] {
  try {
    return readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine);
  } catch {
    return [];
  }
}

describe.each(kinds)("RunSessions on %s", (kind) => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir();
    database = await createTestDatabase(kind, kind === "pglite" ? join(dir, "pglite") : undefined);
  });
  afterAll(async () => {
    await database.dispose();
    removeTempDirs();
  });

  /** A fresh fake agent home, scenario and log for each test. */
  function setup(steps: unknown[] = [{ answer: { ok: true } }]) {
    const root = tempDir();
    const opts = {
      scenarioPath: scenario(root, steps),
      home: join(root, "agent-home"),
      logPath: join(root, "agent.log"),
    };
    const { log } = captureLogger();
    const make = (agent: Agent = new FakeAgent(opts)) =>
      new RunSessions({ db: database.handle.db, agent, log, retryBaseDelayMs: 1 });
    const turn = (extra: Partial<TurnRequest> = {}): TurnRequest => ({
      trigger: "push",
      headSha: "c".repeat(40),
      prompt: "review please",
      cwd: root,
      timeoutMs: 10_000,
      ...extra,
    });
    return { opts, make, turn, calls: () => agentLog(opts.logPath) };
  }

  afterEach(async () => {
    // a test that renamed the sessions table must not leave it renamed
    await database.handle.executeSql("alter table if exists run_agent_sessions_moved rename to run_agent_sessions");
  });

  it("starts a session, then resumes it on the next turn of the same role", async () => {
    const { make, turn, calls } = setup();
    const runId = await createRun(database.handle.db);
    const sessions = make();

    const first = await sessions.run(runId, "reviewer", turn({ prompt: "first" }));
    const second = await sessions.run(runId, "reviewer", turn({ prompt: "second" }));

    expect(first.mode).toBe("started");
    expect(second.mode).toBe("resumed");
    expect(second.result.sessionId).toBe(first.result.sessionId);
    expect(calls().map((c) => [c.sessionAsked, c.turnsInSession])).toEqual([
      [null, 1],
      [first.result.sessionId, 2],
    ]);
    const rows = await listTurns(database.handle.db, runId);
    expect(rows.map((r) => [r.role, r.sessionMode, r.status, r.sessionId])).toEqual([
      ["reviewer", "started", "succeeded", first.result.sessionId],
      ["reviewer", "resumed", "succeeded", first.result.sessionId],
    ]);
    expect(rows[0]!.tokensIn).toBeGreaterThan(0);
    expect(rows[0]!.finishedAt).toBeInstanceOf(Date);
  });

  it("runs each role on its own agent when given one per role, and records which ran each turn", async () => {
    const { opts, turn } = setup();
    const runId = await createRun(database.handle.db);
    const seen: [string, string][] = [];
    const named = (name: string): Agent => {
      const inner = new FakeAgent(opts);
      return {
        name,
        supportsResume: true,
        run: (o: AgentRunOptions) => {
          seen.push([name, o.role]);
          return inner.run(o);
        },
      };
    };
    const byRole = { reviewer: named("reviewer-cli"), fixer: named("fixer-cli"), verifier: named("fixer-cli") };
    const { log } = captureLogger();
    const sessions = new RunSessions({ db: database.handle.db, agent: (role) => byRole[role], log });

    await sessions.run(runId, "reviewer", turn());
    await sessions.run(runId, "fixer", turn());
    // the reviewer's session belongs to its own agent: it resumes there
    expect((await sessions.peek(runId, "reviewer")).resumable).toBe(true);
    expect((await sessions.run(runId, "reviewer", turn())).mode).toBe("resumed");

    expect(seen).toEqual([
      ["reviewer-cli", "reviewer"],
      ["fixer-cli", "fixer"],
      ["reviewer-cli", "reviewer"],
    ]);
    const rows = await listTurns(database.handle.db, runId);
    expect(rows.map((r) => [r.role, r.agent])).toEqual([
      ["reviewer", "reviewer-cli"],
      ["fixer", "fixer-cli"],
      ["reviewer", "reviewer-cli"],
    ]);
    expect((await loadRunAgentSession(database.handle.db, runId, "fixer"))?.agent).toBe("fixer-cli");
  });

  it("records the model id each turn's agent sends (none when the agent has no model or cannot say) and when the PR last changed", async () => {
    const { opts, turn } = setup();
    const runId = await createRun(database.handle.db);
    const pushedAt = new Date("2031-02-03T04:05:06.000Z");
    await updateRun(database.handle.db, runId, { prUpdatedAt: pushedAt });
    const withModel = (name: string, resolveModel?: Agent["resolveModel"]): Agent => {
      const inner = new FakeAgent(opts);
      return { name, supportsResume: true, run: (o: AgentRunOptions) => inner.run(o), resolveModel };
    };
    const byRole = {
      reviewer: withModel("claude-code", () =>
        Promise.resolve({ configured: "claude-opus-4-1", isDefault: false, sent: "claude-opus-4-8" }),
      ),
      fixer: withModel("codex", () => Promise.reject(new AgentError("spawn", "codex: not installed"))),
      verifier: new FakeAgent(opts),
    };
    const { log, lines } = captureLogger();
    const sessions = new RunSessions({ db: database.handle.db, agent: (role) => byRole[role], log });
    await sessions.run(runId, "reviewer", turn());
    await sessions.run(runId, "fixer", turn());
    await sessions.run(runId, "verifier", turn());

    const rows = await listTurns(database.handle.db, runId);
    expect(rows.map((r) => r.prUpdatedAt)).toEqual([pushedAt, pushedAt, pushedAt]);
    expect(rows.map((r) => [r.role, r.agent, r.model, r.status])).toEqual([
      ["reviewer", "claude-code", "claude-opus-4-8", "succeeded"],
      ["fixer", "codex", null, "succeeded"],
      ["verifier", "fake", null, "succeeded"],
    ]);
    expect(lines().some((l) => l.msg === "turn's model unknown; recorded without it")).toBe(true);
  });

  it("sends the fresh prompt to every new session and the short one only to a resume; stores the session's size and memory", async () => {
    const { make, turn, calls } = setup();
    const runId = await createRun(database.handle.db);
    const sessions = make();
    expect(await sessions.peek(runId, "reviewer")).toEqual({ resumable: false, contextTokens: 0 });

    await sessions.run(runId, "reviewer", turn({ prompt: "short one", freshPrompt: "the whole PR, standing alone" }));
    await sessions.remember(runId, "reviewer", { told: 1 });
    const peeked = await sessions.peek(runId, "reviewer");
    expect(peeked).toMatchObject({ resumable: true, memory: { told: 1 } });
    expect(peeked.contextTokens).toBe(Math.ceil("the whole PR, standing alone".length / 4));
    await sessions.run(runId, "reviewer", turn({ prompt: "short two", freshPrompt: "the whole PR again" }));
    await sessions.run(
      runId,
      "reviewer",
      turn({ prompt: "short three", freshPrompt: "whole, asked fresh", fresh: true }),
    );
    expect(calls().map((c) => c.prompt)).toEqual(["the whole PR, standing alone", "short two", "whole, asked fresh"]);
    // a new session has been told nothing its caller recorded
    expect((await sessions.peek(runId, "reviewer")).memory).toBeUndefined();
  });

  it("rolls a session over past its budget: the fresh prompt, mode `rollover`, and the reason recorded", async () => {
    const { opts, turn, calls } = setup();
    const runId = await createRun(database.handle.db);
    const { log } = captureLogger();
    const sessions = new RunSessions({
      db: database.handle.db,
      agent: new FakeAgent(opts),
      log,
      sessionBudgetTokens: 10,
    });
    const first = await sessions.run(runId, "reviewer", turn({ prompt: "x".repeat(400) })); // 100 tokens: past 10
    await sessions.remember(runId, "reviewer", { summary: "kept for the digest" });
    expect(await sessions.peek(runId, "reviewer")).toMatchObject({
      resumable: false,
      contextTokens: 100,
      memory: { summary: "kept for the digest" },
    });
    const second = await sessions.run(runId, "reviewer", turn({ prompt: "short", freshPrompt: "digest" }));
    expect(second.mode).toBe("rollover");
    expect(second.result.sessionId).not.toBe(first.result.sessionId);
    expect(calls().at(-1)).toMatchObject({ sessionAsked: null, prompt: "digest" });
    const rows = await listTurns(database.handle.db, runId);
    expect(rows.at(-1)).toMatchObject({ sessionMode: "rollover", contextTokens: 2 });
    expect(rows.at(-1)!.fallbackReason).toBe(
      "the session holds 100 tokens and a turn adds about 2, past its budget of 10: a new session starts from a digest of the pull request",
    );
  });

  it("rolls over before a turn would take the session past its budget, by what its recent turns added", async () => {
    const { opts, turn, calls } = setup();
    const runId = await createRun(database.handle.db);
    const fake = new FakeAgent(opts);
    // a session whose every request resends its history: each turn adds 30 tokens to its largest request
    const sizes = new Map<string, number>();
    const growing: Agent = {
      ...fake,
      name: fake.name,
      supportsResume: true,
      portable: fake.portable,
      async run(o) {
        const result = await fake.run(o);
        const size = (sizes.get(result.sessionId!) ?? 0) + 30;
        sizes.set(result.sessionId!, size);
        return { ...result, usage: { ...result.usage, contextTokens: size } };
      },
    };
    const sessions = new RunSessions({
      db: database.handle.db,
      agent: growing,
      log: captureLogger().log,
      sessionBudgetTokens: 100,
    });
    const modes: string[] = [];
    const review = async () =>
      modes.push((await sessions.run(runId, "reviewer", turn({ prompt: "d", freshPrompt: "whole" }))).mode);
    for (let i = 0; i < 3; i++) await review();
    // the manager's hint agrees: at 90 tokens, growing 30 a turn, the session is not resumable
    expect(await sessions.peek(runId, "reviewer")).toMatchObject({ resumable: false, contextTokens: 90 });
    await review();
    await review();
    // 30, 60, 90: a fourth turn would reach 120, so it starts a new session (30), which the fifth resumes
    expect(modes).toEqual(["started", "resumed", "resumed", "rollover", "resumed"]);
    const rows = await listTurns(database.handle.db, runId);
    expect(rows.map((r) => r.contextTokens)).toEqual([30, 60, 90, 30, 60]);
    expect(rows[3]!.fallbackReason).toMatch(
      /^the session holds 90 tokens and a turn adds about 30, past its budget of 100/,
    );
    expect(calls()[3]).toMatchObject({ sessionAsked: null, prompt: "whole" });
  });

  it("past the cache's lifetime, rolls over a session larger than a new one would be, and resumes one that is not", async () => {
    const { opts, turn, calls } = setup();
    const runId = await createRun(database.handle.db);
    let now = Date.now();
    const sessions = new RunSessions({
      db: database.handle.db,
      agent: new FakeAgent(opts),
      log: captureLogger().log,
      cacheTtlMs: 300_000,
      now: () => now,
    });
    // the fake agent's size is its prompt: a 100-token session, no overhead
    await sessions.run(runId, "reviewer", turn({ prompt: "d", freshPrompt: "x".repeat(400) }));
    now += 10 * 60_000;
    // a new session would be 10 tokens: resending 100 costs more
    const second = await sessions.run(runId, "reviewer", turn({ prompt: "delta", freshPrompt: "y".repeat(40) }));
    expect(second.mode).toBe("rollover");
    expect(second.fallbackReason).toMatch(
      /^the provider's cache has expired \(the session was last used \d+ s ago\) and resending its 102 tokens costs more than a new session's 10: a new session starts from a digest/,
    );
    expect(calls().at(-1)).toMatchObject({ sessionAsked: null, prompt: "y".repeat(40) });
    // the same wait with a session no larger than a new one: resumed
    now += 10 * 60_000;
    const third = await sessions.run(runId, "reviewer", turn({ prompt: "delta", freshPrompt: "z".repeat(400) }));
    expect(third.mode).toBe("resumed");
    // within the cache's lifetime (the database stamps the session with its own clock) a large session is resumed too
    now = Date.now();
    const fourth = await sessions.run(runId, "reviewer", turn({ prompt: "delta", freshPrompt: "w" }));
    expect(fourth.mode).toBe("resumed");
  });

  it("keeps the reviewer's and the fixer's sessions apart", async () => {
    const { make, turn, calls } = setup();
    const runId = await createRun(database.handle.db);
    const sessions = make();

    const review1 = await sessions.run(runId, "reviewer", turn());
    const fix1 = await sessions.run(runId, "fixer", turn());
    const review2 = await sessions.run(runId, "reviewer", turn());
    const fix2 = await sessions.run(runId, "fixer", turn());

    expect(fix1.mode).toBe("started");
    expect(fix1.result.sessionId).not.toBe(review1.result.sessionId);
    expect(review2.result.sessionId).toBe(review1.result.sessionId);
    expect(fix2.result.sessionId).toBe(fix1.result.sessionId);
    expect([review2.mode, fix2.mode]).toEqual(["resumed", "resumed"]);
    // every call asked only for its own role's session
    for (const call of calls()) {
      if (call.sessionAsked) {
        expect(call.sessionAsked).toBe(call.role === "reviewer" ? review1.result.sessionId : fix1.result.sessionId);
      }
    }
    const rows = await listRunAgentSessions(database.handle.db, runId);
    expect(rows.map((r) => [r.role, r.sessionId]).sort()).toEqual(
      [
        ["fixer", fix1.result.sessionId],
        ["reviewer", review1.result.sessionId],
      ].sort(),
    );
  });

  it("resumes after a restart: a new database connection, a new agent and a new manager", async () => {
    const { opts, make, turn, calls } = setup();
    const runId = await createRun(database.handle.db);
    const first = await make().run(runId, "reviewer", turn());

    await database.reopen();
    const afterRestart = make(new FakeAgent(opts));
    const second = await afterRestart.run(runId, "reviewer", turn());

    expect(second.mode).toBe("resumed");
    expect(second.result.sessionId).toBe(first.result.sessionId);
    expect(calls().at(-1)).toMatchObject({ sessionAsked: first.result.sessionId, resumed: true, turnsInSession: 2 });
  });

  it("falls back to a fresh session when the stored one is dead, completes the turn and records why", async () => {
    const { opts, make, turn, calls } = setup([{ role: "reviewer", answer: { summary: "fine" } }]);
    const runId = await createRun(database.handle.db);
    const sessions = make();
    const first = await sessions.run(runId, "reviewer", turn());
    // the session is gone everywhere: the agent's own copy and the exported one
    rmSync(join(opts.home, "sessions"), { recursive: true });
    await database.handle.executeSql("update run_agent_sessions set state = null where run_id = $1", [runId]);

    const second = await sessions.run(runId, "reviewer", turn({ prompt: "second push" }));

    expect(second.mode).toBe("fallback");
    expect(second.result.json).toEqual({ summary: "fine" });
    expect(second.result.sessionId).not.toBe(first.result.sessionId);
    expect(second.fallbackReason).toContain(`No conversation found with session ID: ${first.result.sessionId}`);
    const stored = await loadRunAgentSession(database.handle.db, runId, "reviewer");
    expect(stored?.sessionId).toBe(second.result.sessionId);
    const rows = await listTurns(database.handle.db, runId);
    expect(rows.at(-1)).toMatchObject({
      sessionMode: "fallback",
      status: "succeeded",
      sessionId: second.result.sessionId,
    });
    expect(rows.at(-1)!.fallbackReason).toContain("resume-failed");
    // the same turn (same prompt) ran again, fresh
    expect(calls().at(-1)).toMatchObject({ sessionAsked: null, prompt: "second push", turnsInSession: 1 });
  });

  it("falls back when a scenario step makes the resume fail", async () => {
    const { make, turn } = setup([
      { role: "reviewer", match: "again", failResume: true, answer: { again: true } },
      { role: "reviewer", answer: { first: true } },
    ]);
    const runId = await createRun(database.handle.db);
    const sessions = make();
    await sessions.run(runId, "reviewer", turn({ prompt: "first" }));
    const second = await sessions.run(runId, "reviewer", turn({ prompt: "again" }));
    expect(second.mode).toBe("fallback");
    expect(second.result.json).toEqual({ again: true });
  });

  it("does not retry a cancelled turn and keeps the stored session", async () => {
    const { make, turn, calls } = setup([
      { role: "reviewer", match: "slow", delayMs: 30_000, answer: { late: true } },
      { role: "reviewer", answer: { ok: true } },
    ]);
    const runId = await createRun(database.handle.db);
    const sessions = make();
    const first = await sessions.run(runId, "reviewer", turn());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);

    const error = await sessions
      .run(runId, "reviewer", turn({ prompt: "slow", signal: controller.signal }))
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).kind).toBe("cancelled");
    expect(calls()).toHaveLength(1); // no fresh re-run after the cancellation
    expect((await loadRunAgentSession(database.handle.db, runId, "reviewer"))?.sessionId).toBe(first.result.sessionId);
    expect((await listTurns(database.handle.db, runId)).at(-1)).toMatchObject({
      status: "cancelled",
      sessionMode: "started",
    });
  });

  it("ignores a stored session minted by another agent", async () => {
    const { make, turn, calls } = setup();
    const runId = await createRun(database.handle.db);
    await saveRunAgentSession(database.handle.db, {
      runId,
      role: "reviewer",
      agent: "codex",
      sessionId: "thread-from-codex",
      state: null,
    });

    const outcome = await make().run(runId, "reviewer", turn());

    expect(outcome.mode).toBe("started");
    expect(calls()[0]!.sessionAsked).toBeNull();
    const stored = await loadRunAgentSession(database.handle.db, runId, "reviewer");
    expect(stored).toMatchObject({ agent: "fake", sessionId: outcome.result.sessionId });
  });

  it("degrades to cold when the session store fails, and still completes the turn", async () => {
    const { make, turn } = setup();
    const runId = await createRun(database.handle.db);
    await database.handle.executeSql("alter table run_agent_sessions rename to run_agent_sessions_moved");

    const outcome = await make().run(runId, "reviewer", turn());

    expect(outcome.mode).toBe("cold");
    expect(outcome.result.json).toEqual({ ok: true });
    expect(outcome.fallbackReason).toMatch(/session store unavailable/);
    expect((await listTurns(database.handle.db, runId)).at(-1)).toMatchObject({
      status: "succeeded",
      sessionMode: "cold",
    });
  });

  it("restores exported session state when the agent's own copy was wiped", async () => {
    const { opts, make, turn } = setup();
    const runId = await createRun(database.handle.db);
    const first = await make().run(runId, "reviewer", turn());
    const stored = await loadRunAgentSession(database.handle.db, runId, "reviewer");
    expect(stored?.state?.length).toBeGreaterThan(0);
    rmSync(opts.home, { recursive: true }); // another replica, or an empty disk after a redeploy

    const second = await make(new FakeAgent(opts)).run(runId, "reviewer", turn());

    expect(second.mode).toBe("resumed");
    expect(second.result.sessionId).toBe(first.result.sessionId);
  });

  it("stores no state over the size cap, and then falls back cleanly when the local copy is gone", async () => {
    const { opts, turn } = setup();
    const { log } = captureLogger();
    const sessions = new RunSessions({ db: database.handle.db, agent: new FakeAgent(opts), log, maxStateBytes: 10 });
    const runId = await createRun(database.handle.db);
    await sessions.run(runId, "reviewer", turn());
    expect((await loadRunAgentSession(database.handle.db, runId, "reviewer"))?.state).toBeNull();
    rmSync(opts.home, { recursive: true });

    const second = await sessions.run(runId, "reviewer", turn());
    expect(second.mode).toBe("fallback");
  });

  it("reports a silently replaced session as a fallback, not a resume", async () => {
    const { make, turn } = setup();
    let calls = 0;
    const forgetful: Agent = {
      name: "forgetful",
      supportsResume: true,
      async run(_options: AgentRunOptions): Promise<AgentResult> {
        calls++;
        return {
          text: "{}",
          json: {},
          sessionId: `new-thread-${calls}`,
          resumed: false,
          usage: { tokensIn: 1, tokensOut: 1 },
        };
      },
    };
    const runId = await createRun(database.handle.db);
    const sessions = make(forgetful);
    await sessions.run(runId, "reviewer", turn());
    const second = await sessions.run(runId, "reviewer", turn());
    expect(second.mode).toBe("fallback");
    expect(second.fallbackReason).toContain("new-thread-1");
    expect((await loadRunAgentSession(database.handle.db, runId, "reviewer"))?.sessionId).toBe("new-thread-2");
    // with a prompt for new sessions, the replaced session's turn runs again with it
    const prompts: string[] = [];
    const recording: Agent = { ...forgetful, run: async (o) => (prompts.push(o.prompt), forgetful.run(o)) };
    const third = await make(recording).run(runId, "reviewer", turn({ prompt: "delta", freshPrompt: "whole" }));
    expect(prompts).toEqual(["delta", "whole"]);
    expect(third).toMatchObject({ mode: "fallback", result: { sessionId: "new-thread-4" } });
  });

  it("runs cold with an adapter that cannot resume, and retries transient failures", async () => {
    const { make, turn } = setup();
    const seen: (string | undefined)[] = [];
    let failures = 1;
    const cold: Agent = {
      name: "cold",
      supportsResume: false,
      async run(options) {
        seen.push(options.sessionId);
        if (failures-- > 0) throw new AgentError("transient", "529 overloaded");
        return {
          text: "done",
          sessionId: "ignored",
          resumed: false,
          usage: { tokensIn: 3, tokensOut: 4, costUsd: 0.25 },
        };
      },
    };
    const runId = await createRun(database.handle.db);
    const outcome = await make(cold).run(runId, "reviewer", turn());
    expect(outcome.mode).toBe("cold");
    expect(seen).toEqual([undefined, undefined]);
    expect(await loadRunAgentSession(database.handle.db, runId, "reviewer")).toBeUndefined();
    expect((await listTurns(database.handle.db, runId))[0]).toMatchObject({ costUsd: 0.25, tokensIn: 3, tokensOut: 4 });
  });

  it("records a failed fresh turn and throws its classified error", async () => {
    const { make, turn } = setup([{ exitCode: 3 }]);
    const runId = await createRun(database.handle.db);
    const error = await make()
      .run(runId, "fixer", turn())
      .catch((e: unknown) => e);
    expect((error as AgentError).kind).toBe("other");
    expect((await listTurns(database.handle.db, runId))[0]).toMatchObject({
      status: "failed",
      error: "other: fake agent exited with code 3",
    });
  });
});
