import type { EnvConfig } from "../config/env/env-config.js";
import { createAgent } from "./create-agent.js";
import type { AgentSandbox } from "./sandbox/agent-sandbox.js";
import type { Agent, Role } from "./types.js";

/** The agent of each role: one adapter per distinct agent and model, shared by the roles that run it. */
export type AgentsByRole = Record<Role, Agent>;

/** Each role's agent: REVIEWER_/FIXER_/VERIFIER_AGENT and _MODEL, else AGENT and AGENT_MODEL. */
export function createRoleAgents(config: EnvConfig, sandbox: AgentSandbox): AgentsByRole {
  const made = new Map<string, Agent>();
  const agentOf = (role: Role): Agent => {
    const choice = config.agent.roles[role];
    const key = JSON.stringify([choice.name, choice.model ?? null]);
    let agent = made.get(key);
    if (!agent) made.set(key, (agent = createAgent(config, sandbox, choice)));
    return agent;
  };
  return { reviewer: agentOf("reviewer"), fixer: agentOf("fixer"), verifier: agentOf("verifier") };
}
