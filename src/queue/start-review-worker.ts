import { join } from "node:path";
import type { Probot } from "probot";
import type { Logger } from "pino";
import type { Agent } from "../agents/types.js";
import type { EnvConfig } from "../config/env-config.js";
import type { DatabaseHandle } from "../db/database.js";
import { GitWorkspace } from "../git/git-workspace.js";
import { OctokitGitHubClient } from "../github/octokit-github-client.js";
import { runReview, type ReviewDeps } from "../pipeline/run-review.js";
import { RunSessions } from "../pipeline/run-sessions.js";
import type { RunQueue } from "./run-queue.js";

/** Starts this process's workers: each job is one review of a run, with an installation's GitHub client. */
export async function startReviewWorker(
  app: Probot,
  deps: { config: EnvConfig; database: DatabaseHandle; agent: Agent; queue: RunQueue; log: Logger },
): Promise<void> {
  let ownLogin: Promise<string | undefined> | undefined;
  const reviewDeps: ReviewDeps = {
    db: deps.database.db,
    sessions: new RunSessions({ db: deps.database.db, agent: deps.agent, log: deps.log }),
    log: deps.log,
    github: async (installationId) => new OctokitGitHubClient(await app.auth(installationId)),
    // Stable per run: the agent's sessions are keyed by their working directory.
    workspace: (run) => new GitWorkspace(join(deps.config.dataDir, "workspaces", String(run.repositoryId), String(run.prNumber))),
    agentTimeoutMs: deps.config.agent.timeoutMs,
    isOwnBot: async (login) => {
      ownLogin ??= app
        .auth()
        .then((octokit) => octokit.rest.apps.getAuthenticated())
        .then(({ data }) => (data?.slug ? `${data.slug}[bot]` : undefined))
        .catch((error: unknown) => {
          deps.log.warn({ err: error }, "could not learn this app's bot login");
          ownLogin = undefined;
          return undefined;
        });
      return (await ownLogin) === login;
    },
  };
  await deps.queue.work(deps.config.workerConcurrency, (job, signal, attempt) => runReview(reviewDeps, job, signal, attempt));
}
