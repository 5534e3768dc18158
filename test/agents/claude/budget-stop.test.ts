import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { ClaudeCodeAgent } from "../../../src/agents/claude/claude-code.js";
import { DEFAULT_REPO_CONFIG } from "../../../src/config/repo/repo-config.js";
import { listTurns } from "../../../src/db/turns.js";
import { spendOf } from "../../../src/pipeline/sessions/check-budget.js";
import { RunSessions } from "../../../src/pipeline/sessions/run-sessions.js";
import { captureLogger } from "../../helpers/capture-logger.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "../../helpers/fake-anthropic-server.js";
import { createRun } from "../../helpers/run-fixture.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { createTestDatabase, type TestDatabase } from "../../helpers/test-database.js";

let server: FakeAnthropicServer;
let database: TestDatabase;
let workspace: string;

beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database.dispose();
  removeTempDirs();
});
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  workspace = tempDir("nm-budget-ws-");
  writeFileSync(join(workspace, "app.ts"), "export const greeting = 'hi';\n");
});
afterEach(async () => {
  await server.close();
});

it("stops a turn (real Claude Code, real sandbox) whose model spend passes the PR's budget mid-way, and records the spend", async () => {
  // The first answer costs $0.75 by the proxy's prices (200k in at $3, 10k out at $15); the PR has $0.50 left.
  server.enqueue(
    {
      toolUse: { name: "Read", input: { file_path: join(workspace, "app.ts") } },
      inputTokens: 200_000,
      outputTokens: 10_000,
    },
    { text: '{"findings":[]}' },
  );
  const claude = new ClaudeCodeAgent({
    homeDir: tempDir("nm-budget-home-"),
    apiKey: "sk-ant-test-0123456789",
    baseUrl: server.url,
  });
  const { log } = captureLogger();
  const sessions = new RunSessions({ db: database.handle.db, agent: claude, log, retryBaseDelayMs: 1 });
  const runId = await createRun(database.handle.db);
  const limits = { ...DEFAULT_REPO_CONFIG, limits: { max_turns: 30, max_cost_usd: 0.5 } };
  const error = await sessions
    .run(runId, "reviewer", {
      trigger: "push",
      headSha: "c".repeat(40),
      prompt: "Review app.ts",
      cwd: workspace,
      timeoutMs: 30_000,
      limits,
    })
    .then(
      () => undefined,
      (e: unknown) => e as Error,
    );
  expect(error?.message).toMatch(/claude was stopped: the PR's model budget is spent/);
  expect(error?.message).toContain("limits.max_cost_usd");
  // The second model call (after the tool ran) never reached the model.
  expect(server.mainCalls()).toHaveLength(1);
  const turns = await listTurns(database.handle.db, runId);
  expect(turns).toHaveLength(1);
  expect(turns[0]).toMatchObject({ status: "failed" });
  expect(turns[0]!.error).toMatch(/model budget is spent/);
  expect(turns[0]!.tokensIn).toBeGreaterThanOrEqual(200_000);
  expect(spendOf(turns).costUsd).toBeGreaterThanOrEqual(0.75);
}, 60_000);
