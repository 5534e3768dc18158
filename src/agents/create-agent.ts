import { join, resolve } from "node:path";
import type { AgentChoice } from "../config/env/agent-roles.js";
import type { EnvConfig } from "../config/env/env-config.js";
import { ClaudeCodeAgent, DEFAULT_CLAUDE_CLI } from "./claude/claude-code.js";
import { CodexAgent } from "./codex/codex.js";
import { FakeAgent } from "./fake/fake.js";
import { GeminiAgent } from "./gemini/index.js";
import { OpenCodeAgent } from "./opencode/index.js";
import type { AgentSandbox } from "./sandbox/agent-sandbox.js";
import { BubblewrapSandbox } from "./sandbox/bubblewrap-sandbox.js";
import { UnconfinedSandbox } from "./sandbox/unconfined-sandbox.js";
import type { Agent } from "./types.js";

/** Where agent CLIs run, as AGENT_SANDBOX says. */
export function createSandbox(config: EnvConfig): AgentSandbox {
  return config.agent.sandbox === "off"
    ? new UnconfinedSandbox()
    : new BubblewrapSandbox({ limits: config.agent.limits });
}

/** The adapter of an agent and model: by default AGENT's, with AGENT_MODEL (a role's own is in `agent.roles`). */
export function createAgent(
  config: EnvConfig,
  sandbox: AgentSandbox = createSandbox(config),
  choice: AgentChoice = { name: config.agent.name, model: config.agent.model },
): Agent {
  const model = choice.model;
  // AGENT_CLI and AGENT_ARGS are AGENT's CLI's: another CLI chosen for a role runs pinned, as it is.
  const own = choice.name === config.agent.name;
  const cli = own ? config.agent.cli : undefined;
  const extraArgs = own ? config.agent.extraArgs : [];
  const shared = {
    homeDir: resolve(config.agent.homeDir),
    maxOutputTokens: config.agent.maxOutputTokens,
    serverTools: config.agent.serverTools,
    sandbox,
  };
  const api = (settings: { apiKey?: string; baseUrl?: string }) => ({
    apiKey: settings.apiKey,
    baseUrl: settings.baseUrl,
  });
  switch (choice.name) {
    case "fake":
      return new FakeAgent({
        scenarioPath: config.agent.fake.scenario,
        home: resolve(config.agent.fake.home ?? join(config.dataDir, "fake-agent")),
        logPath: config.agent.fake.log,
      });
    case "claude":
      return new ClaudeCodeAgent({
        ...shared,
        cli: cli ?? DEFAULT_CLAUDE_CLI,
        model,
        extraArgs,
        ...api(config.agent.anthropic),
      });
    case "codex":
      return new CodexAgent({ ...shared, cli, model, extraArgs, ...api(config.agent.openai) });
    case "gemini":
      return new GeminiAgent({ ...shared, cli, model, extraArgs, ...api(config.agent.gemini) });
    case "opencode":
      return new OpenCodeAgent({
        ...shared,
        cli: config.agent.cli,
        provider: config.agent.opencode.provider,
        model: config.agent.model,
        extraArgs: config.agent.extraArgs,
        ...api(config.agent.opencode),
      });
  }
}
