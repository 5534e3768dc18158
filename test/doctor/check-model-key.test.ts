import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnvConfig } from "../../src/config/env/env-config.js";
import { checkModelKey } from "../../src/doctor/check-model-key.js";
import { freePort } from "../helpers/free-port.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "../helpers/fake-openai-server.js";

let openai: FakeOpenAIServer;
beforeAll(async () => {
  openai = await startFakeOpenAIServer();
});
afterAll(() => openai.close());

describe("checkModelKey", () => {
  it("OpenAI: lists models at OPENAI_BASE_URL with the key as a bearer token", async () => {
    const { agent } = readEnvConfig({ OPENAI_API_KEY: "sk-test-openai-0123456789", OPENAI_BASE_URL: openai.baseUrl });

    const check = await checkModelKey("openai", agent);

    expect(check).toMatchObject({ ok: true, name: "OpenAI key" });
    expect(openai.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ["GET", "/v1/models", "Bearer sk-test-openai-0123456789"],
    ]);
  });

  it("says which setting is missing, and that an unreachable provider is a network problem", async () => {
    expect(await checkModelKey("anthropic", readEnvConfig({}).agent)).toEqual({
      name: "Anthropic key",
      ok: false,
      detail: "ANTHROPIC_API_KEY is not set",
      fix: "set ANTHROPIC_API_KEY",
    });
    const unreachable = readEnvConfig({
      ANTHROPIC_API_KEY: "sk-ant-0123456789abcdef",
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${await freePort()}`,
    });
    expect(await checkModelKey("anthropic", unreachable.agent)).toMatchObject({
      ok: false,
      detail: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+\/v1\/messages\/count_tokens did not answer \(ECONNREFUSED\)$/,
      ),
      fix: expect.stringContaining("ANTHROPIC_BASE_URL"),
    });
  });
});
