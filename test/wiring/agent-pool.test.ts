import { describe, expect, it } from "vitest";
import { CodexAgent } from "../../src/agents/codex/codex.js";
import { createRoleAgents } from "../../src/agents/create-role-agents.js";
import { UnconfinedSandbox } from "../../src/agents/sandbox/unconfined-sandbox.js";
import { readEnvConfig } from "../../src/config/env/env-config.js";
import { AgentPool } from "../../src/wiring/agent-pool.js";
import { repoAgentProblem } from "../../src/wiring/repo-agent-problem.js";

function poolOf(env: Record<string, string>) {
  const config = readEnvConfig({ AGENT: "fake", DATA_DIR: "/tmp/nm-agent-pool", ...env });
  const sandbox = new UnconfinedSandbox();
  const roles = createRoleAgents(config, sandbox);
  return { config, roles, pool: new AgentPool(config, roles, sandbox) };
}

describe("AgentPool", () => {
  it("gives a role the repository's choice only where the operator allows it and the app has its key", () => {
    const codex = { agent: "codex" as const, model: "gpt-5.5" };
    const allowed = poolOf({ AGENTS_FROM_REPO: "on", OPENAI_API_KEY: "sk-openai-key-1" });
    expect(allowed.pool.forRole("fixer", codex)).toBeInstanceOf(CodexAgent);
    expect(allowed.pool.forRole("fixer", codex)).toBe(allowed.pool.forRole("reviewer", codex)); // one adapter
    expect(allowed.pool.forRole("fixer")).toBe(allowed.roles.fixer);
    expect(repoAgentProblem(allowed.config, codex)).toBeUndefined();

    const notAllowed = poolOf({ OPENAI_API_KEY: "sk-openai-key-1" });
    expect(notAllowed.pool.forRole("fixer", codex)).toBe(notAllowed.roles.fixer);
    expect(repoAgentProblem(notAllowed.config, codex)).toMatch(/has not let repositories choose agents/);

    const noKey = poolOf({ AGENTS_FROM_REPO: "on" });
    expect(noKey.pool.forRole("fixer", codex)).toBe(noKey.roles.fixer);
    expect(repoAgentProblem(noKey.config, codex)).toBe("this app has no key for codex, so the operator's agent runs");
  });

  it("gives a second opinion a role's adapter when one runs that agent, and none without its key", () => {
    const { pool, roles } = poolOf({ REVIEWER_AGENT: "codex", OPENAI_API_KEY: "sk-openai-key-1" });
    expect(pool.secondOpinion("codex")).toBe(roles.reviewer);
    expect(pool.secondOpinion("fake")).toBe(roles.fixer);
    expect(pool.secondOpinion("gemini")).toBeUndefined();
  });
});
