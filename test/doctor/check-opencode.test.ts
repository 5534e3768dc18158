import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenCodeAgent } from "../../src/agents/opencode/index.js";
import { readEnvConfig } from "../../src/config/env/env-config.js";
import { checkOpenCodeBinary, checkOpenCodeKey } from "../../src/doctor/check-opencode.js";
import { startFakeAnthropicServer, type FakeAnthropicServer } from "../helpers/fake-anthropic-server.js";
import { startFakeOpenAIChatServer, type FakeOpenAIChatServer } from "../helpers/fake-openai-chat-server.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

let anthropic: FakeAnthropicServer;
let chat: FakeOpenAIChatServer;
beforeAll(async () => {
  anthropic = await startFakeAnthropicServer();
  chat = await startFakeOpenAIChatServer();
});
afterAll(async () => {
  await Promise.all([anthropic.close(), chat.close()]);
  removeTempDirs();
});

describe("npm run doctor for AGENT=opencode", () => {
  it("Anthropic provider: counts tokens for AGENT_MODEL with OPENCODE_API_KEY", async () => {
    const { agent } = readEnvConfig({
      OPENCODE_API_KEY: "sk-ant-opencode-0123456789",
      OPENCODE_BASE_URL: anthropic.url,
      AGENT_MODEL: "claude-haiku-4-5",
    });
    expect(await checkOpenCodeKey(agent)).toMatchObject({ ok: true, name: "OpenCode key" });
    const request = anthropic.requests.at(-1)!;
    expect([request.method, request.url, request.headers["x-api-key"]]).toEqual([
      "POST",
      "/v1/messages/count_tokens",
      "sk-ant-opencode-0123456789",
    ]);
    expect((request.body as { model?: string }).model).toBe("claude-haiku-4-5");
  });

  it("OpenAI-compatible provider: a 404 on the model list says which settings to check", async () => {
    const { agent } = readEnvConfig({
      OPENCODE_PROVIDER: "openai",
      OPENCODE_API_KEY: "sk-local-0123456789",
      OPENCODE_BASE_URL: chat.baseUrl,
    });
    const check = await checkOpenCodeKey(agent);
    expect(chat.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/models" });
    expect(chat.requests.at(-1)!.headers.authorization).toBe("Bearer sk-local-0123456789");
    expect(check).toMatchObject({ ok: false, detail: expect.stringMatching(/\/v1\/models answered 404$/) });
    expect(check.fix).toMatch(/OPENCODE_BASE_URL/);
  });

  it("says the key is missing, and whether the binary starts", async () => {
    expect(await checkOpenCodeKey(readEnvConfig({}).agent)).toMatchObject({
      ok: false,
      detail: "OPENCODE_API_KEY is not set",
    });
    const home = tempDir("nm-doctor-opencode-");
    expect(await checkOpenCodeBinary(new OpenCodeAgent({ homeDir: home }))).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^opencode 1\.18\./),
    });
    const missing = await checkOpenCodeBinary(new OpenCodeAgent({ homeDir: home, cli: "/nonexistent/opencode" }));
    expect(missing).toMatchObject({ ok: false, fix: expect.stringContaining("AGENT_CLI") });
  });
});
