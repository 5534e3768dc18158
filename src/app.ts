import type { ApplicationFunction } from "probot";
import { NoMistakesProbot } from "./server/no-mistakes-probot.js";
import type { Logger } from "pino";
import type { Metrics } from "./metrics/metrics.js";
import type { Agent } from "./agents/types.js";
import type { EnvConfig } from "./config/env-config.js";
import type { DatabaseHandle } from "./db/database.js";
import type { WebhookIntake } from "./intake/webhook-intake.js";
import type { RunQueue } from "./queue/run-queue.js";
import { startReviewWorker } from "./queue/start-review-worker.js";
import { onCheckRunRerequested } from "./webhooks/on-check-run-rerequested.js";
import { onIssueComment } from "./webhooks/on-issue-comment.js";
import { onPullRequest } from "./webhooks/on-pull-request.js";
import { onPullRequestClosed } from "./webhooks/on-pull-request-closed.js";
import { onReviewComment } from "./webhooks/on-review-comment.js";

export interface AppDependencies {
  config: EnvConfig;
  database: DatabaseHandle;
  /** The reviewer/fixer agent; absent in a web process (ROLE=web), which runs no turns. */
  agent?: Agent;
  /** Who verifies a fixer's claims (fresh sessions); default: `agent`. */
  verifierAgent?: Agent;
  queue: RunQueue;
  /**
   * Where handlers hand deliveries over (journaled, answered, then applied): see openWebhookIntake.
   * Absent in a worker process (ROLE=worker), which takes no webhooks.
   */
  intake?: WebhookIntake;
  log: Logger;
  /** Where turns, refusals and fix pushes are counted (absent: nothing is). */
  metrics?: Metrics;
  /** Start workers in this process (default: when there is an agent). */
  work?: boolean;
}

/**
 * Probot wiring: events → guards → the intake's journal, then GitHub is answered. Nothing slow happens
 * here; the intake writes the database right after, and the worker does the rest.
 */
export function createApp(deps: AppDependencies): ApplicationFunction {
  return async (app) => {
    const { intake, log } = deps;
    if (!(app instanceof NoMistakesProbot))
      throw new Error(
        "no-mistakes is loaded into NoMistakesProbot (src/server/no-mistakes-probot.ts), which serves its webhooks",
      );
    const { events } = app;
    if (intake) {
      events.on(
        ["pull_request.opened", "pull_request.reopened", "pull_request.ready_for_review", "pull_request.synchronize"],
        async (event) => onPullRequest(event, intake, log),
      );
      events.on("pull_request.closed", async (event) => onPullRequestClosed(event, intake, log));
      events.on("check_run.rerequested", async (event) => onCheckRunRerequested(event, intake, log));
      events.on("issue_comment.created", async (event) => onIssueComment(event, intake, log));
      events.on("pull_request_review_comment.created", async (event) => onReviewComment(event, intake, log));
    }
    const { agent } = deps;
    if (agent && deps.work !== false) await startReviewWorker(app, { ...deps, agent });
    deps.log.info(
      {
        agent: agent?.name,
        webhooks: intake !== undefined,
        workers: agent !== undefined && deps.work !== false,
        database: deps.database.kind,
      },
      "no-mistakes loaded",
    );
  };
}
