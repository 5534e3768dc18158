import { join } from "node:path";
import nock from "nock";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { ClaudeCodeAgent } from "../../src/agents/claude-code.js";
import { startAppHarness, type AppHarness } from "./app-harness.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "./fake-anthropic-server.js";
import { GitRemote } from "./git-remote.js";
import { GitHubStandIn } from "./github-stand-in.js";
import { removeTempDirs, tempDir } from "./temp-dir.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

/** What a flow test with the real Claude Code CLI works with; fresh for every test. */
export interface ClaudeFlow {
  database: TestDatabase;
  root: string;
  remote: GitRemote;
  github: GitHubStandIn;
  app: AppHarness;
  model: FakeAnthropicServer;
}

/**
 * Registers the hooks of a flow test driving the real (sandboxed) Claude Code CLI through the app:
 * an embedded database for the file; per test a git remote, the fake model server on 127.0.0.1, the
 * GitHub stand-in for `owner/repo` and the app harness with the Claude adapter. The returned object's
 * fields are set before each test.
 */
export function useClaudeFlow(options: {
  owner: string;
  repo: string;
  permissions?: Record<string, string>;
}): ClaudeFlow {
  const flow = {} as ClaudeFlow;
  beforeAll(async () => {
    flow.database = await createTestDatabase("pglite");
    nock.disableNetConnect();
    nock.enableNetConnect("127.0.0.1"); // the fake model server (the CLI runs in its own process anyway)
  });
  afterAll(async () => {
    await flow.database.dispose();
    nock.enableNetConnect();
    removeTempDirs();
  });
  beforeEach(async () => {
    flow.root = tempDir();
    flow.remote = new GitRemote(flow.root);
    flow.model = await startFakeAnthropicServer();
    flow.github = new GitHubStandIn({
      owner: options.owner,
      repo: options.repo,
      installationId: 99,
      bareRepo: flow.remote.bare,
      baseRef: "main",
      ...(options.permissions ? { permissions: options.permissions } : {}),
    });
    flow.github.install();
    const dataDir = join(flow.root, "data");
    const agent = new ClaudeCodeAgent({
      homeDir: join(dataDir, "agents"),
      apiKey: "sk-ant-flow-test",
      baseUrl: flow.model.url,
      killGraceMs: 1000,
    });
    flow.app = await startAppHarness({ database: flow.database.handle, dataDir, agent, env: { AGENT_TIMEOUT: "60s" } });
  });
  afterEach(async () => {
    await flow.app?.stop();
    await flow.model?.close();
  });
  return flow;
}
