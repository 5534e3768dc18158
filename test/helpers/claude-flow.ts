import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { ClaudeCodeAgent } from "../../src/agents/claude/claude-code.js";
import { BubblewrapSandbox } from "../../src/agents/sandbox/bubblewrap-sandbox.js";
import type { TurnLimits } from "../../src/config/env/turn-limits.js";
import type { DatabaseHandle } from "../../src/db/database.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "./fake-anthropic-server.js";
import { FlowFixture } from "./flow-fixture.js";
import { useFlowDatabase } from "./use-flow-database.js";

/** What a flow test with the real Claude Code CLI works with; fresh for every test. */
export interface ClaudeFlow {
  database: { readonly handle: DatabaseHandle };
  /** The PR's world (`octo-org/widgets`), its app running the Claude adapter against `model`. */
  fx: FlowFixture;
  model: FakeAnthropicServer;
}

/**
 * Registers the hooks of a flow test driving the real (sandboxed) Claude Code CLI through the app: the
 * flow database for the file (nock open to 127.0.0.1 only, for the fake model server; the CLI runs in its
 * own process anyway); per test the fake model server and a FlowFixture whose app has the Claude adapter.
 * The returned object's fields are set before each test.
 */
export function useClaudeFlow(
  options: {
    permissions?: Record<string, string>;
    limits?: TurnLimits;
    model?: string;
    /** The app runs repositories' commands (checks, reproducers) in a real bubblewrap sandbox. */
    checks?: boolean;
  } = {},
): ClaudeFlow {
  const flow = {} as ClaudeFlow;
  // Registered before the database's hooks, so that (after hooks running last first) the app stops before the model.
  afterEach(async () => {
    await flow.model?.close();
  });
  flow.database = useFlowDatabase(() => flow.fx, { allowHost: "127.0.0.1" });
  beforeEach(async () => {
    flow.model = await startFakeAnthropicServer();
    flow.fx = FlowFixture.withoutApp(options.permissions ? { permissions: options.permissions } : {});
    const agent = new ClaudeCodeAgent({
      homeDir: join(flow.fx.dataDir, "agents"),
      apiKey: "sk-ant-flow-test",
      baseUrl: flow.model.url,
      killGraceMs: 1000,
      ...(options.limits ? { sandbox: new BubblewrapSandbox({ limits: options.limits }) } : {}),
      ...(options.model ? { model: options.model } : {}),
    });
    await flow.fx.startApp(flow.database.handle, {
      agent,
      env: { AGENT_TIMEOUT: "60s" },
      idleTimeoutMs: 90_000,
      ...(options.checks ? { sandbox: new BubblewrapSandbox() } : {}),
    });
  });
  return flow;
}
