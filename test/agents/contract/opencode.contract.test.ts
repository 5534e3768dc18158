import { OpenCodeAgent } from "../../../src/agents/opencode/index.js";
import { startFakeAnthropicServer } from "../../helpers/fake-anthropic-server.js";
import { describeAgentContract } from "./agent-contract.js";

describeAgentContract({
  name: "opencode",
  async startServer() {
    const server = await startFakeAnthropicServer();
    return {
      url: server.url,
      write: (path, content) => server.enqueue({ toolUse: { name: "write", input: { filePath: path, content } } }),
      answer: (text) => server.enqueue({ text, inputTokens: 100, outputTokens: 20 }),
      conversations: () => server.mainCalls().map((body) => JSON.stringify(body)),
      close: () => server.close(),
    };
  },
  agent: ({ server, homeDir, sandbox }) =>
    new OpenCodeAgent({
      homeDir,
      apiKey: "sk-ant-opencode-contract-0123456789",
      baseUrl: server.url,
      sandbox,
      killGraceMs: 1000,
    }),
});
