import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeAgent } from "../../src/agents/fake/fake.js";
import type { Agent } from "../../src/agents/types.js";
import { Metrics } from "../../src/metrics/metrics.js";
import { RunSessions, type TurnRequest } from "../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../helpers/capture-logger.js";
import { createRun } from "../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.js";
import { sample } from "./sample.js";

describe("agent metrics, recorded by RunSessions (pglite, fake agent)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(async () => {
    await database.dispose();
    removeTempDirs();
  });

  function setup(steps: unknown[]) {
    const root = tempDir();
    const scenarioPath = join(root, "scenario.json");
    writeFileSync(scenarioPath, JSON.stringify({ steps }));
    const agent = new FakeAgent({ scenarioPath, home: join(root, "agent-home"), logPath: join(root, "agent.log") });
    const metrics = new Metrics({ processMetrics: false });
    const sessions = (a: Agent = agent) =>
      new RunSessions({ db: database.handle.db, agent: a, log: captureLogger().log, retryBaseDelayMs: 1, metrics });
    const turn = (prompt: string): TurnRequest => ({
      trigger: "push",
      headSha: "c".repeat(40),
      prompt,
      cwd: root,
      timeoutMs: 10_000,
    });
    return { agent, metrics, sessions, turn };
  }

  it("times each finished turn by role and session mode, and counts its tokens", async () => {
    const { metrics, sessions, turn } = setup([{ answer: { ok: true } }]);
    const runId = await createRun(database.handle.db);
    const manager = sessions();
    const prompt = "x".repeat(400); // the fake agent reports a token per 4 characters of prompt

    const first = await manager.run(runId, "reviewer", turn(prompt));
    await manager.run(runId, "reviewer", turn(prompt));
    await manager.run(runId, "fixer", turn(prompt));

    const text = await metrics.text();
    expect(sample(text, 'agent_turn_seconds_count{role="reviewer",mode="started"}')).toBe(1);
    expect(sample(text, 'agent_turn_seconds_count{role="reviewer",mode="resumed"}')).toBe(1);
    expect(sample(text, 'agent_turn_seconds_count{role="fixer",mode="started"}')).toBe(1);
    expect(sample(text, 'agent_turn_seconds_sum{role="reviewer",mode="started"}')).toBeGreaterThan(0);
    expect(sample(text, 'agent_tokens_total{role="reviewer",kind="input"}')).toBe(200);
    expect(sample(text, 'agent_tokens_total{role="fixer",kind="input"}')).toBe(100);
    expect(sample(text, 'agent_tokens_total{role="reviewer",kind="output"}')).toBe(2 * first.result.usage.tokensOut);
    expect(text).not.toContain("agent_fallbacks_total{");
  });

  it("counts a failed resume as a fallback, and the turn under mode fallback", async () => {
    const { metrics, sessions, turn } = setup([
      { role: "reviewer", match: "again", failResume: true, answer: { again: true } },
      { answer: { ok: true } },
    ]);
    const runId = await createRun(database.handle.db);
    const manager = sessions();
    await manager.run(runId, "reviewer", turn("first"));
    const second = await manager.run(runId, "reviewer", turn("again"));
    expect(second.mode).toBe("fallback");

    const text = await metrics.text();
    expect(sample(text, 'agent_fallbacks_total{reason="resume_failed"}')).toBe(1);
    expect(sample(text, 'agent_turn_seconds_count{role="reviewer",mode="fallback"}')).toBe(1);
  });

  it("adds the spend an agent reports, per role; a cold adapter's turns are mode cold", async () => {
    const { metrics, sessions, turn } = setup([]);
    const paid: Agent = {
      name: "paid",
      supportsResume: false,
      run: async () => ({
        text: "{}",
        json: {},
        resumed: false,
        usage: { tokensIn: 1000, tokensOut: 50, costUsd: 0.125 },
      }),
    };
    const runId = await createRun(database.handle.db);
    await sessions(paid).run(runId, "reviewer", turn("a"));
    await sessions(paid).run(runId, "verifier", turn("b"));
    await sessions(paid).run(runId, "verifier", turn("c"));

    const text = await metrics.text();
    expect(sample(text, 'agent_cost_usd_total{role="reviewer"}')).toBe(0.125);
    expect(sample(text, 'agent_cost_usd_total{role="verifier"}')).toBe(0.25);
    expect(sample(text, 'agent_turn_seconds_count{role="verifier",mode="cold"}')).toBe(2);
    expect(sample(text, 'agent_tokens_total{role="verifier",kind="output"}')).toBe(100);
  });

  it("records nothing for a turn that fails, and never fails a turn over what the agent reported", async () => {
    const { metrics, sessions, turn } = setup([]);
    const odd: Agent = {
      name: "odd",
      supportsResume: false,
      run: async () => ({
        text: "{}",
        resumed: false,
        usage: { tokensIn: Number.NaN, tokensOut: -3, costUsd: undefined },
      }),
    };
    const broken: Agent = {
      name: "broken",
      supportsResume: false,
      run: async () => Promise.reject(new Error("exit 1")),
    };
    const runId = await createRun(database.handle.db);

    await expect(sessions(odd).run(runId, "reviewer", turn("a"))).resolves.toMatchObject({ mode: "cold" });
    await expect(sessions(broken).run(runId, "fixer", turn("b"))).rejects.toThrow("exit 1");

    const text = await metrics.text();
    expect(sample(text, 'agent_turn_seconds_count{role="reviewer",mode="cold"}')).toBe(1);
    expect(sample(text, 'agent_tokens_total{role="reviewer",kind="input"}')).toBe(0);
    expect(text).not.toContain('role="fixer"');
  });
});
