import { join, resolve } from "node:path";
import type { AgentChoice } from "../config/agent-roles.js";
import type { EnvConfig } from "../config/env-config.js";
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
  switch (choice.name) {
    case "fake":
      return new FakeAgent({
        scenarioPath: config.agent.fake.scenario,
        home: resolve(config.agent.fake.home ?? join(config.dataDir, "fake-agent")),
        logPath: config.agent.fake.log,
      });
    case "claude":
      return new ClaudeCodeAgent({
        cli: cli ?? DEFAULT_CLAUDE_CLI,
        homeDir: resolve(config.agent.homeDir),
        apiKey: config.agent.anthropic.apiKey,
        baseUrl: config.agent.anthropic.baseUrl,
        model,
        extraArgs,
        maxOutputTokens: config.agent.maxOutputTokens,
        serverTools: config.agent.serverTools,
        sandbox,
      });
    case "codex":
      return new CodexAgent({
        cli,
        homeDir: resolve(config.agent.homeDir),
        apiKey: config.agent.openai.apiKey,
        baseUrl: config.agent.openai.baseUrl,
        model,
        extraArgs,
        maxOutputTokens: config.agent.maxOutputTokens,
        serverTools: config.agent.serverTools,
        sandbox,
      });
    case "gemini":
      return new GeminiAgent({
        cli,
        homeDir: resolve(config.agent.homeDir),
        apiKey: config.agent.gemini.apiKey,
        baseUrl: config.agent.gemini.baseUrl,
        model,
        extraArgs,
        maxOutputTokens: config.agent.maxOutputTokens,
        serverTools: config.agent.serverTools,
        sandbox,
      });
    case "opencode":
      return new OpenCodeAgent({
        cli: config.agent.cli,
        homeDir: resolve(config.agent.homeDir),
        provider: config.agent.opencode.provider,
        apiKey: config.agent.opencode.apiKey,
        baseUrl: config.agent.opencode.baseUrl,
        model: config.agent.model,
        extraArgs: config.agent.extraArgs,
        maxOutputTokens: config.agent.maxOutputTokens,
        serverTools: config.agent.serverTools,
        sandbox,
      });
  }
}
