import type { ApplicationFunction } from "probot";
import type { Logger } from "pino";
import type { Agent } from "./agents/types.js";
import type { EnvConfig } from "./config/env-config.js";
import type { DatabaseHandle } from "./db/database.js";
import type { RunQueue } from "./queue/run-queue.js";
import { startReviewWorker } from "./queue/start-review-worker.js";
import { onCheckRunRerequested } from "./webhooks/on-check-run-rerequested.js";
import { onIssueComment } from "./webhooks/on-issue-comment.js";
import { onPullRequest } from "./webhooks/on-pull-request.js";
import { onPullRequestClosed } from "./webhooks/on-pull-request-closed.js";
import { createWebhookDeps } from "./webhooks/webhook-deps.js";

export interface AppDependencies {
  config: EnvConfig;
  database: DatabaseHandle;
  agent: Agent;
  queue: RunQueue;
  log: Logger;
  /** Start workers in this process (default true). */
  work?: boolean;
}

/** Probot wiring: events → guards → enqueue. Nothing slow happens here; the worker does the rest. */
export function createApp(deps: AppDependencies): ApplicationFunction {
  return async (app) => {
    const hooks = createWebhookDeps(deps);
    app.on(["pull_request.opened", "pull_request.reopened", "pull_request.ready_for_review", "pull_request.synchronize"], (context) =>
      onPullRequest(context, hooks),
    );
    app.on("pull_request.closed", (context) => onPullRequestClosed(context, hooks));
    app.on("check_run.rerequested", (context) => onCheckRunRerequested(context, hooks));
    app.on("issue_comment.created", (context) => onIssueComment(context, hooks));
    if (deps.work !== false) await startReviewWorker(app, deps);
    deps.log.info({ agent: deps.agent.name, database: deps.database.kind }, "no-mistakes loaded");
  };
}
