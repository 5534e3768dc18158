import {
  answerCommand,
  processRun,
  RunSessions,
  type PipelineDeps,
  type RunSessionsOptions,
} from "../pipeline/index.js";
import { join } from "node:path";
import type { Probot } from "probot";
import type { Logger } from "pino";
import type { AgentSandbox } from "../agents/sandbox/agent-sandbox.js";
import type { AgentsByRole } from "./create-agents.js";
import { createChecks } from "./create-checks.js";
import type { EnvConfig } from "../config/env/env-config.js";
import type { DatabaseHandle } from "../db/database.js";
import { GitWorkspace } from "../git/git-workspace.js";
import { tokenForUrl } from "../git/token-for-url.js";
import { OctokitGitHubClient } from "../github/octokit-github-client.js";
import { AgentPool } from "./agent-pool.js";
import { repoAgentProblem } from "./repo-agent-problem.js";
import type { AgentName } from "../config/env/agent-roles.js";
import type { Metrics } from "../metrics/metrics.js";
import type { Refusals } from "../refusals/refusals.js";
import type { RunQueue } from "../queue/run-queue.js";

/** Starts this process's workers: run jobs (agent turns, one per run at a time) and command replies. */
export async function startWorkers(
  app: Probot,
  deps: {
    config: EnvConfig;
    database: DatabaseHandle;
    /** Each role's agent (see createAgents). */
    agents: AgentsByRole;
    /** Where agents run: the repository's own commands run there too (see createChecks). */
    sandbox?: AgentSandbox;
    queue: RunQueue;
    log: Logger;
    metrics?: Metrics;
    /** This process's refusals (counted and kept for the operator page). */
    refusals: Refusals;
  },
): Promise<void> {
  let slug: Promise<string> | undefined;
  const appSlug = (): Promise<string> => {
    slug ??= app
      .auth()
      .then((octokit) => octokit.rest.apps.getAuthenticated())
      .then(({ data }) => data?.slug ?? "no-mistakes")
      .catch((error: unknown) => {
        slug = undefined;
        throw error;
      });
    return slug;
  };
  const github = async (installationId: number) =>
    new OctokitGitHubClient(await app.auth(installationId), appSlug, deps.config.github.host);
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
  const reviewDeps: PipelineDeps = {
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
  await deps.queue.work(deps.config.workerConcurrency, (job, signal, attempt) =>
    processRun(reviewDeps, job, signal, attempt),
  );
  await deps.queue.workCommands(2, (job, attempt) =>
    answerCommand(
      {
        db: deps.database.db,
        log: deps.log,
        refusals: deps.refusals,
        github,
        enqueueRun: (runJob) => deps.queue.enqueue(runJob),
      },
      job,
      attempt,
    ),
  );
}
