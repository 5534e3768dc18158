export {
  DEFAULT_OPENCODE_CLI,
  DEFAULT_OPENCODE_MODEL,
  OpenCodeAgent,
  type OpenCodeAgentOptions,
} from "./opencode-agent.js";
export type { OpenCodeProvider } from "./opencode-config.js";
