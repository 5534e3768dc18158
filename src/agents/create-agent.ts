import { join, resolve } from "node:path";
import type { EnvConfig } from "../config/env-config.js";
import { ClaudeCodeAgent, DEFAULT_CLAUDE_CLI } from "./claude-code.js";
import { CodexAgent } from "./codex.js";
import { FakeAgent } from "./fake.js";
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

/** The agent adapter chosen by AGENT (or, for `role: "verifier"`, by VERIFIER_AGENT). */
export function createAgent(
  config: EnvConfig,
  sandbox: AgentSandbox = createSandbox(config),
  role: "main" | "verifier" = "main",
): Agent {
  switch (role === "verifier" ? config.agent.verifier : config.agent.name) {
    case "fake":
      return new FakeAgent({
        scenarioPath: config.agent.fake.scenario,
        home: resolve(config.agent.fake.home ?? join(config.dataDir, "fake-agent")),
        logPath: config.agent.fake.log,
      });
    case "claude":
      return new ClaudeCodeAgent({
        cli: config.agent.cli ?? DEFAULT_CLAUDE_CLI,
        homeDir: resolve(config.agent.homeDir),
        apiKey: config.agent.anthropic.apiKey,
        baseUrl: config.agent.anthropic.baseUrl,
        model: config.agent.model,
        extraArgs: config.agent.extraArgs,
        maxOutputTokens: config.agent.maxOutputTokens,
        serverTools: config.agent.serverTools,
        sandbox,
      });
    case "codex":
      return new CodexAgent({
        cli: config.agent.cli,
        homeDir: resolve(config.agent.homeDir),
        apiKey: config.agent.openai.apiKey,
        baseUrl: config.agent.openai.baseUrl,
        model: config.agent.model,
        extraArgs: config.agent.extraArgs,
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
