import { GeminiAgent } from "../../../src/agents/gemini/index.js";
import { startFakeGeminiServer } from "../../helpers/fake-gemini-server.js";
import { describeAgentContract } from "./agent-contract.js";

describeAgentContract({
  name: "gemini",
  async startServer() {
    const server = await startFakeGeminiServer();
    return {
      url: server.baseUrl,
      write: (path, content) => server.enqueue({ call: { name: "write_file", args: { file_path: path, content } } }),
      answer: (text) => server.enqueue({ text, usage: { prompt: 100, candidates: 20 } }),
      conversations: () => server.modelCalls().map((call) => call.rawBody),
      close: () => server.close(),
    };
  },
  agent: ({ server, homeDir, sandbox }) =>
    new GeminiAgent({
      homeDir,
      apiKey: "AIza-gemini-contract-0123456789",
      baseUrl: server.url,
      sandbox,
      killGraceMs: 1000,
    }),
});
