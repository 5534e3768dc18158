import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readEnvConfig } from "../../../src/config/env/env-config.js";
import { checkAgentModel } from "../../../src/doctor/check-agent-model.js";
import { checkModelKey } from "../../../src/doctor/check-model-key.js";
import { createAgent } from "../../../src/agents/create-agent.js";
import { UnconfinedSandbox } from "../../../src/agents/sandbox/unconfined-sandbox.js";
import { startFakeGeminiServer, type FakeGeminiServer } from "../../helpers/fake-gemini-server.js";
import { removeTempDirs, tempDir } from "../../helpers/temp-dir.js";
import { GeminiAgent } from "../../../src/agents/gemini/index.js";

let server: FakeGeminiServer;
beforeEach(async () => {
  server = await startFakeGeminiServer();
});
afterEach(async () => {
  await server.close();
  removeTempDirs();
});

const KEY = "AIza-doctor-key-0123456789";

describe("AGENT=gemini in the config and the doctor", () => {
  it("needs GEMINI_API_KEY, takes GOOGLE_GEMINI_BASE_URL, and builds the Gemini adapter (also as the verifier)", () => {
    const app = { APP_ID: "1", PRIVATE_KEY: "x", WEBHOOK_SECRET: "s" };
    expect(() => readEnvConfig({ ...app, AGENT: "gemini" })).toThrow(/GEMINI_API_KEY: required with AGENT=gemini/);
    expect(() => readEnvConfig({ ...app, AGENT: "fake", VERIFIER_AGENT: "gemini" })).toThrow(
      /GEMINI_API_KEY: required with VERIFIER_AGENT=gemini/,
    );
    const config = readEnvConfig({ AGENT: "gemini", GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: server.baseUrl });
    expect(config.agent.gemini).toEqual({ apiKey: KEY, baseUrl: server.baseUrl });
    expect(config.secrets).toContain(KEY);
    const agent = createAgent(config, new UnconfinedSandbox());
    expect(agent).toBeInstanceOf(GeminiAgent);
    expect(agent.name).toBe("gemini");
    const roles = readEnvConfig({ AGENT: "fake", VERIFIER_AGENT: "gemini", GEMINI_API_KEY: KEY }).agent.roles;
    const verifier = createAgent(config, new UnconfinedSandbox(), roles.verifier);
    expect(verifier).toBeInstanceOf(GeminiAgent);
  });

  it("checks the key by describing the model at GOOGLE_GEMINI_BASE_URL, and says what is wrong", async () => {
    server.requireKey(KEY);
    server.serveModels(["gemini-2.5-pro"]);
    const { agent } = readEnvConfig({ AGENT: "gemini", GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: server.baseUrl });
    expect(await checkModelKey("gemini", agent, "gemini-2.5-pro")).toMatchObject({ ok: true, name: "Gemini key" });
    expect(server.requests.map((r) => [r.method, r.path, r.headers["x-goog-api-key"]])).toEqual([
      ["GET", "/v1beta/models/gemini-2.5-pro", KEY],
    ]);
    expect(await checkModelKey("gemini", agent, "gemini-9-ultra")).toMatchObject({
      ok: false,
      detail: expect.stringContaining("does not serve the model gemini-9-ultra"),
    });
    const wrong = readEnvConfig({ GEMINI_API_KEY: "AIza-wrong-0123456789", GOOGLE_GEMINI_BASE_URL: server.baseUrl });
    expect(await checkModelKey("gemini", wrong.agent, "gemini-2.5-pro")).toMatchObject({
      ok: false,
      detail: expect.stringContaining("rejected"),
      fix: "set GEMINI_API_KEY to a valid key",
    });
    expect(await checkModelKey("gemini", readEnvConfig({}).agent)).toMatchObject({
      ok: false,
      detail: "GEMINI_API_KEY is not set",
    });
  });

  it("reports the model Gemini CLI sends and that the proxy allows it; a missing CLI fails the check", async () => {
    const homeDir = tempDir("nm-gemini-doctor-");
    const ok = await checkAgentModel(new GeminiAgent({ homeDir, model: "gemini-2.5-flash" }), "bubblewrap");
    expect(ok?.check).toMatchObject({ ok: true, detail: expect.stringContaining("gemini sends gemini-2.5-flash") });
    const missing = await checkAgentModel(new GeminiAgent({ homeDir, cli: "/nonexistent/gemini" }), "bubblewrap");
    expect(missing?.check).toMatchObject({ ok: false, detail: expect.stringContaining("/nonexistent/gemini") });
  });
});
