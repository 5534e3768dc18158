import type { EnvConfig } from "../config/env/env-config.js";
import { AGENT_KEYS, type AgentName } from "../config/env/agent-roles.js";

/** Whether this app can run `name`: its key is set, or what stands in for it (the fake agent needs none). */
export function agentConfigured(config: EnvConfig, name: AgentName): boolean {
  const key = AGENT_KEYS[name];
  if (!key) return true;
  const settings = config.agent[key.provider];
  return settings.apiKey !== undefined || (key.unlessSet !== undefined && settings.baseUrl !== undefined);
}
