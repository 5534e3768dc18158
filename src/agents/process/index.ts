export { runAgentProcess, type AgentProcessOptions, type AgentProcessResult } from "./run-agent-process.js";
export { buildAgentEnv, isForbiddenAgentEnvName } from "./build-agent-env.js";
