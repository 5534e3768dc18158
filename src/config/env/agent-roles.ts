import type { Role } from "../../domain/role.js";

/** The agent CLIs an operator can name (AGENT, REVIEWER_AGENT, FIXER_AGENT, VERIFIER_AGENT). */
export const AGENT_NAMES = ["fake", "claude", "codex", "gemini", "opencode"] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** Which agent and model one role's turns run. */
export interface AgentChoice {
  name: AgentName;
  /** Undefined: the adapter's default model. */
  model?: string;
}

export type AgentRoles = Record<Role, AgentChoice>;

/** The key a real CLI needs: its variable, what it is (for the problem a missing one gives), and where it is read. */
export interface AgentKey {
  variable: string;
  cli: string;
  /** The settings of `agent` in the environment's config that hold it (`apiKey`, and `baseUrl` for unlessSet). */
  provider: "anthropic" | "openai" | "gemini" | "opencode";
  /** A variable (the provider's base URL) that, set, stands in for the key. */
  unlessSet?: string;
}

/** The key each real CLI needs (the fake agent needs none): the one source of which agents the app can run. */
export const AGENT_KEYS: Partial<Record<AgentName, AgentKey>> = {
  claude: { variable: "ANTHROPIC_API_KEY", cli: "Claude Code", provider: "anthropic" },
  codex: { variable: "OPENAI_API_KEY", cli: "Codex", provider: "openai" },
  gemini: { variable: "GEMINI_API_KEY", cli: "Gemini CLI", provider: "gemini" },
  // a keyless model server of the team's own needs only its URL
  opencode: {
    variable: "OPENCODE_API_KEY",
    cli: "OpenCode (of OPENCODE_PROVIDER's API)",
    provider: "opencode",
    unlessSet: "OPENCODE_BASE_URL",
  },
};

interface RoleEnv {
  AGENT: AgentName;
  AGENT_MODEL?: string | undefined;
  REVIEWER_AGENT?: AgentName | undefined;
  FIXER_AGENT?: AgentName | undefined;
  VERIFIER_AGENT?: AgentName | undefined;
  REVIEWER_MODEL?: string | undefined;
  FIXER_MODEL?: string | undefined;
  VERIFIER_MODEL?: string | undefined;
}

/**
 * Each role's agent and model: `<ROLE>_AGENT` (default AGENT) and `<ROLE>_MODEL`; without one, a role that
 * runs AGENT's CLI takes AGENT_MODEL, and a role that runs another CLI takes that CLI's default model
 * (AGENT_MODEL names a model of AGENT's provider).
 */
export function readAgentRoles(e: RoleEnv): AgentRoles {
  const choose = (agent: AgentName | undefined, model: string | undefined): AgentChoice => {
    const name = agent ?? e.AGENT;
    return { name, model: model ?? (name === e.AGENT ? e.AGENT_MODEL : undefined) };
  };
  return {
    reviewer: choose(e.REVIEWER_AGENT, e.REVIEWER_MODEL),
    fixer: choose(e.FIXER_AGENT, e.FIXER_MODEL),
    verifier: choose(e.VERIFIER_AGENT, e.VERIFIER_MODEL),
  };
}

/** The roles' setting names, for problems: `AGENT` when a role follows it, else `<ROLE>_AGENT`. */
function settingOf(e: RoleEnv, role: Role): string {
  const own = { reviewer: e.REVIEWER_AGENT, fixer: e.FIXER_AGENT, verifier: e.VERIFIER_AGENT }[role];
  return own === undefined ? "AGENT" : `${role.toUpperCase()}_AGENT`;
}

/** A problem for each CLI some role runs whose key is missing (one per key, naming the settings that need it). */
export function missingAgentKeys(e: RoleEnv, roles: AgentRoles, env: NodeJS.ProcessEnv): string[] {
  const needs = new Map<string, { cli: string; settings: Set<string> }>();
  for (const role of ["reviewer", "fixer", "verifier"] as const) {
    const key = AGENT_KEYS[roles[role].name];
    const set = (variable: string | undefined) => variable !== undefined && (env[variable] ?? "").trim() !== "";
    if (!key || set(key.variable) || set(key.unlessSet)) continue;
    const entry = needs.get(key.variable) ?? { cli: key.cli, settings: new Set<string>() };
    entry.settings.add(`${settingOf(e, role)}=${roles[role].name}`);
    needs.set(key.variable, entry);
  }
  return [...needs].map(
    ([variable, { cli, settings }]) =>
      `${variable}: required with ${[...settings].join(" and ")} (the key ${cli} uses; or choose another agent, or AGENT=fake)${variable === "OPENCODE_API_KEY" ? "; a keyless server of your own needs only OPENCODE_BASE_URL" : ""}`,
  );
}
