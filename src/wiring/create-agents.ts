import { createAgent } from "../agents/create-agent.js";
import type { AgentSandbox } from "../agents/sandbox/agent-sandbox.js";
import type { Agent } from "../agents/types.js";
import type { EnvConfig } from "../config/env-config.js";

/**
 * The reviewer/fixer agent (AGENT) and the verifier's (VERIFIER_AGENT: the same one unless it names another
 * CLI), with the sandbox they run in (the repository's own commands run there too).
 */
export function createAgents(
  config: EnvConfig,
  sandbox: AgentSandbox,
): { agent: Agent; verifierAgent: Agent; sandbox: AgentSandbox } {
  const agent = createAgent(config, sandbox);
  const verifierAgent = config.agent.verifier !== config.agent.name ? createAgent(config, sandbox, "verifier") : agent;
  return { agent, verifierAgent, sandbox };
}
