import type { RepoAgentChoice } from "../pipeline/index.js";
import { agentConfigured } from "../agents/agent-configured.js";
import type { EnvConfig } from "../config/env/env-config.js";

/** Why a repository's choice of agent does not apply (said in the review body), or undefined when it does. */
export function repoAgentProblem(config: EnvConfig, choice: RepoAgentChoice): string | undefined {
  if (!config.agent.fromRepo)
    return "this app's operator has not let repositories choose agents (AGENTS_FROM_REPO=on does), so the operator's agent runs";
  if (!agentConfigured(config, choice.agent))
    return `this app has no key for ${choice.agent}, so the operator's agent runs`;
  return undefined;
}
