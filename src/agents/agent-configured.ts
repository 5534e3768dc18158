import type { AgentName } from "../config/env/agent-roles.js";
import type { EnvConfig } from "../config/env/env-config.js";

/** Whether this app can run `name`: its key is set (the fake agent needs none). */
export function agentConfigured(config: EnvConfig, name: AgentName): boolean {
  switch (name) {
    case "fake":
      return true;
    case "claude":
      return config.agent.anthropic.apiKey !== undefined;
    case "codex":
      return config.agent.openai.apiKey !== undefined;
    case "gemini":
      return config.agent.gemini.apiKey !== undefined;
    case "opencode":
      return config.agent.opencode.apiKey !== undefined || config.agent.opencode.baseUrl !== undefined;
  }
}
