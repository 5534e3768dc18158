import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ClaudeCodeAgent } from "../../src/agents/claude-code.js";
import { CodexAgent, DEFAULT_CODEX_CLI } from "../../src/agents/codex.js";
import { createAgent } from "../../src/agents/create-agent.js";
import { FakeAgent } from "../../src/agents/fake.js";
import { DEFAULT_OPENCODE_CLI, OpenCodeAgent } from "../../src/agents/opencode/index.js";
import { readEnvConfig } from "../../src/config/env-config.js";
import { removeTempDirs, tempDir } from "../helpers/temp-dir.js";

afterAll(() => removeTempDirs());

describe("createAgent picks the adapter AGENT names", () => {
  it.each([
    ["fake", {}, FakeAgent],
    ["claude", { ANTHROPIC_API_KEY: "sk-ant-k" }, ClaudeCodeAgent],
    ["codex", { OPENAI_API_KEY: "sk-openai-k" }, CodexAgent],
    ["opencode", { OPENCODE_API_KEY: "sk-ant-k" }, OpenCodeAgent],
  ] as const)("AGENT=%s", (name, env, type) => {
    const agent = createAgent(readEnvConfig({ AGENT: name, DATA_DIR: tempDir(), ...env }));
    expect(agent).toBeInstanceOf(type);
    expect(agent.name).toBe(name);
    expect(agent.supportsResume).toBe(true);
    expect(agent.portable).toBeDefined();
  });

  it("ships the pinned Codex CLI", () => {
    expect(existsSync(DEFAULT_CODEX_CLI)).toBe(true);
  });

  it("ships the pinned OpenCode CLI, and says its version", async () => {
    expect(existsSync(DEFAULT_OPENCODE_CLI)).toBe(true);
    const agent = createAgent(readEnvConfig({ AGENT: "opencode", DATA_DIR: tempDir(), OPENCODE_API_KEY: "k" }));
    expect(await (agent as OpenCodeAgent).version()).toMatch(/^1\.18\.\d+$/);
  });
});
