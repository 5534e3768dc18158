export { DEFAULT_GEMINI_CLI, DEFAULT_GEMINI_MODEL, GeminiAgent, geminiHomeFor } from "./gemini-agent.js";
export type { GeminiAgentOptions } from "./gemini-agent.js";
