import { existsSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ClaudeCodeAgent } from "../../src/agents/claude/claude-code.js";
import { CodexAgent, DEFAULT_CODEX_CLI } from "../../src/agents/codex/codex.js";
import { createAgent } from "../../src/agents/create-agent.js";
import { createRoleAgents } from "../../src/agents/create-role-agents.js";
import { UnconfinedSandbox } from "../../src/agents/sandbox/unconfined-sandbox.js";
import { FakeAgent } from "../../src/agents/fake/fake.js";
import { DEFAULT_OPENCODE_CLI, OpenCodeAgent } from "../../src/agents/opencode/index.js";
import { readEnvConfig } from "../../src/config/env/env-config.js";
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

describe("createRoleAgents gives each role the agent and model it names", () => {
  it("one adapter per distinct agent and model, shared by the roles that run it", async () => {
    const config = readEnvConfig({
      AGENT: "claude",
      AGENT_MODEL: "opus",
      ANTHROPIC_API_KEY: "sk-ant-k",
      OPENAI_API_KEY: "sk-openai-k",
      FIXER_AGENT: "codex",
      VERIFIER_MODEL: "sonnet",
      DATA_DIR: tempDir(),
    });
    const agents = createRoleAgents(config, new UnconfinedSandbox());
    expect(agents.reviewer).toBeInstanceOf(ClaudeCodeAgent);
    expect(agents.fixer).toBeInstanceOf(CodexAgent);
    expect(agents.verifier).toBeInstanceOf(ClaudeCodeAgent);
    expect(agents.verifier).not.toBe(agents.reviewer); // another model, another adapter
    expect(createRoleAgents(readEnvConfig({ AGENT: "fake", DATA_DIR: tempDir() }), new UnconfinedSandbox())).toSatisfy(
      (a: Record<string, unknown>) => a.reviewer === a.fixer && a.fixer === a.verifier,
    );
    // AGENT_MODEL (a Claude model here) never reaches another provider's CLI: Codex runs its default
    const codexModel = await agents.fixer.resolveModel!();
    expect(codexModel).toMatchObject({ configured: "gpt-5.5", isDefault: true });
  });
});
