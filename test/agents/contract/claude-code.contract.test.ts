import { ClaudeCodeAgent } from "../../../src/agents/claude/claude-code.js";
import { startFakeAnthropicServer } from "../../helpers/fake-anthropic-server.js";
import { describeAgentContract } from "./agent-contract.js";

describeAgentContract({
  name: "claude",
  async startServer() {
    const server = await startFakeAnthropicServer();
    return {
      url: server.url,
      write: (path, content) => server.enqueue({ toolUse: { name: "Write", input: { file_path: path, content } } }),
      answer: (text) => server.enqueue({ text, inputTokens: 100, outputTokens: 20 }),
      conversations: () => server.mainCalls().map((body) => JSON.stringify(body)),
      close: () => server.close(),
    };
  },
  agent: ({ server, homeDir, sandbox }) =>
    new ClaudeCodeAgent({
      homeDir,
      apiKey: "sk-ant-contract-0123456789",
      baseUrl: server.url,
      sandbox,
      killGraceMs: 1000,
    }),
});
