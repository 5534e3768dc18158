import { RunSessions, type PipelineDeps, type RunSessionsOptions } from "../pipeline/index.js";
import { join } from "node:path";
import { createChecks } from "./create-checks.js";
import { GitWorkspace } from "../git/git-workspace.js";
import { tokenForUrl } from "../git/token-for-url.js";
import type { GitHubClient } from "../github/github-client.js";
import { AgentPool } from "./agent-pool.js";
import { repoAgentProblem } from "./repo-agent-problem.js";
import type { AgentName } from "../config/env/agent-roles.js";
import type { WorkerDeps } from "./worker-deps.js";

/**
 * What the pipeline's jobs are handed: each role's agent sessions (the second opinions' made on first
 * use), the workspaces, the repository's checks, GitHub as the installation, and who the bot is.
 */
export function createPipelineDeps(
  deps: WorkerDeps,
  github: (installationId: number) => Promise<GitHubClient>,
  appSlug: () => Promise<string>,
): PipelineDeps {
  const sessionsOf = (agent: RunSessionsOptions["agent"]) =>
    new RunSessions({
      db: deps.database.db,
      agent,
      log: deps.log,
      maxStateBytes: deps.config.agent.stateMaxBytes,
      metrics: deps.metrics,
      sessionBudgetTokens: deps.config.agent.sessionMaxTokens,
      cacheTtlMs: deps.config.agent.cacheTtlMs,
    });
  const pool = new AgentPool(deps.config, deps.agents, deps.sandbox);
  const secondOpinions = new Map<AgentName, RunSessions>();
  return {
    db: deps.database.db,
    sessions: sessionsOf((role, choice) => pool.forRole(role, choice)),
    verifier: sessionsOf((_role, choice) => pool.forRole("verifier", choice)),
    secondOpinion: (name) => {
      const agent = pool.secondOpinion(name);
      if (!agent) return undefined;
      let sessions = secondOpinions.get(name);
      if (!sessions) secondOpinions.set(name, (sessions = sessionsOf(agent)));
      return sessions;
    },
    repoAgentProblem: (choice) => repoAgentProblem(deps.config, choice),
    log: deps.log,
    metrics: deps.metrics,
    refusals: deps.refusals,
    github,
    // Stable per run: the agent's sessions are keyed by their working directory.
    workspace: (run) =>
      new GitWorkspace(join(deps.config.dataDir, "workspaces", String(run.repositoryId), String(run.prNumber)), {
        maxCheckoutBytes: deps.config.workspaceMaxBytes,
      }),
    agentTimeoutMs: deps.config.agent.timeoutMs,
    checks: createChecks(deps.config, deps.sandbox, deps.metrics),
    gitToken: (url, token) =>
      tokenForUrl(url, token, { hosts: deps.config.github.gitHosts, protocol: deps.config.github.protocol }),
    isOwnBot: async (login) => {
      try {
        return `${await appSlug()}[bot]` === login;
      } catch (error) {
        deps.log.warn({ err: error }, "could not learn this app's bot login");
        return false;
      }
    },
  };
}
