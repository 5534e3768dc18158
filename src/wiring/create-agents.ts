import { createRoleAgents, type AgentsByRole } from "../agents/create-role-agents.js";
import type { AgentSandbox } from "../agents/sandbox/agent-sandbox.js";
import type { EnvConfig } from "../config/env/env-config.js";

export type { AgentsByRole };

/** Each role's agent, with the sandbox they run in (the repository's own commands run there too). */
export function createAgents(
  config: EnvConfig,
  sandbox: AgentSandbox,
): { agents: AgentsByRole; sandbox: AgentSandbox } {
  return { agents: createRoleAgents(config, sandbox), sandbox };
}
