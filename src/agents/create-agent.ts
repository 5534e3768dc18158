import { join, resolve } from "node:path";
import type { EnvConfig } from "../config/env-config.js";
import { ConfigError } from "../config/config-error.js";
import { ClaudeCodeAgent, DEFAULT_CLAUDE_CLI } from "./claude-code.js";
import { FakeAgent } from "./fake.js";
import type { Agent } from "./types.js";

/** The agent adapter chosen by AGENT. */
export function createAgent(config: EnvConfig): Agent {
  switch (config.agent.name) {
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
      });
    case "codex":
      throw new ConfigError("The environment", [
        `AGENT: the ${config.agent.name} adapter is not part of this version yet; use AGENT=fake`,
      ]);
  }
}
