import type { EnvConfig } from "../config/env/env-config.js";
import type { AgentChoice } from "../config/env/agent-roles.js";
import { createAgent } from "./create-agent.js";
import type { AgentSandbox } from "./sandbox/agent-sandbox.js";
import type { Agent, Role } from "./types.js";

/** The agent of each role: one adapter per distinct agent and model, shared by the roles that run it. */
export type AgentsByRole = Record<Role, Agent>;

/**
 * One adapter per agent and model: the first ask for a choice makes it, every later one gets it again. `made`,
 * the roles' agents already made, are what their choices give.
 */
export function agentMemo(
  config: EnvConfig,
  sandbox: AgentSandbox | undefined,
  made?: AgentsByRole,
): (choice: AgentChoice) => Agent {
  const agents = new Map<string, Agent>();
  const key = (choice: AgentChoice) => JSON.stringify([choice.name, choice.model ?? null]);
  if (made)
    for (const role of ["reviewer", "fixer", "verifier"] as const)
      agents.set(key(config.agent.roles[role]), made[role]);
  return (choice) => {
    let agent = agents.get(key(choice));
    if (!agent) agents.set(key(choice), (agent = createAgent(config, sandbox, choice)));
    return agent;
  };
}

/** Each role's agent: REVIEWER_/FIXER_/VERIFIER_AGENT and _MODEL, else AGENT and AGENT_MODEL. */
export function createRoleAgents(config: EnvConfig, sandbox: AgentSandbox): AgentsByRole {
  const of = agentMemo(config, sandbox);
  const { roles } = config.agent;
  return { reviewer: of(roles.reviewer), fixer: of(roles.fixer), verifier: of(roles.verifier) };
}
