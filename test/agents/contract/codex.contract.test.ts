import { CodexAgent } from "../../../src/agents/codex/codex.js";
import { startFakeOpenAIServer } from "../../helpers/fake-openai-server.js";
import { describeAgentContract } from "./agent-contract.js";

describeAgentContract({
  name: "codex",
  async startServer() {
    const server = await startFakeOpenAIServer();
    return {
      url: server.baseUrl,
      write: (path, content) =>
        server.enqueue({
          applyPatch: `*** Begin Patch\n*** Add File: ${path}\n+${content.replace(/\n$/, "")}\n*** End Patch\n`,
        }),
      answer: (text) => server.enqueue({ text, usage: { input: 100, output: 20 } }),
      conversations: () => server.responsesBodies().map((body) => JSON.stringify(body)),
      close: () => server.close(),
    };
  },
  agent: ({ server, homeDir, sandbox }) =>
    new CodexAgent({
      homeDir,
      apiKey: "sk-codex-contract-0123456789",
      baseUrl: server.url,
      sandbox,
      killGraceMs: 1000,
    }),
});
