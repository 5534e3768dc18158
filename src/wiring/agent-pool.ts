import type { RepoAgentChoice } from "../pipeline/index.js";
import { agentConfigured } from "../agents/agent-configured.js";
import { agentMemo, type AgentsByRole } from "../agents/create-role-agents.js";
import type { AgentSandbox } from "../agents/sandbox/agent-sandbox.js";
import type { Agent, Role } from "../agents/types.js";
import type { AgentChoice, AgentName } from "../config/env/agent-roles.js";
import type { EnvConfig } from "../config/env/env-config.js";

/**
 * The agents turns may run: each role's (the operator's), a repository's choice where AGENTS_FROM_REPO=on
 * lets it choose (of agents the app has a key for), and a second opinion's. One adapter per agent and model.
 */
export class AgentPool {
  readonly #of: (choice: AgentChoice) => Agent;

  constructor(
    private readonly config: EnvConfig,
    private readonly roles: AgentsByRole,
    sandbox: AgentSandbox | undefined,
  ) {
    this.#of = agentMemo(config, sandbox, roles);
  }

  /** A role's agent: the repository's choice when it may choose and the app can run it, else the operator's. */
  forRole(role: Role, choice?: RepoAgentChoice): Agent {
    if (!choice || !this.config.agent.fromRepo || !agentConfigured(this.config, choice.agent)) return this.roles[role];
    return this.of({ name: choice.agent, ...(choice.model ? { model: choice.model } : {}) });
  }

  /** A second opinion's agent: a role's when one runs it, else its default model; undefined without its key. */
  secondOpinion(name: AgentName): Agent | undefined {
    if (!agentConfigured(this.config, name)) return undefined;
    return Object.values(this.roles).find((agent) => agent.name === name) ?? this.of({ name });
  }

  of(choice: AgentChoice): Agent {
    return this.#of(choice);
  }
}
