import type { ApplicationFunction } from "probot";
import type { Logger } from "pino";
import { NoMistakesProbot } from "./server/no-mistakes-probot.js";
import type { WebhookIntake } from "./intake/webhook-intake.js";
import { onCheckRunRerequested } from "./webhooks/on-check-run-rerequested.js";
import { onIssueComment } from "./webhooks/on-issue-comment.js";
import { onPullRequest } from "./webhooks/on-pull-request.js";
import { onPullRequestClosed } from "./webhooks/on-pull-request-closed.js";
import { onReviewComment } from "./webhooks/on-review-comment.js";

export interface AppDependencies {
  /** Where handlers hand deliveries over (journaled, answered, then applied): see openWebhookIntake. */
  intake: WebhookIntake;
  log: Logger;
}

/**
 * The webhooks the app answers: events → payload checks → the intake's journal, then GitHub is answered.
 * Nothing slow happens here; the intake writes the database right after, and the workers (started by
 * src/wiring/start-server.ts) do the rest.
 */
export function createApp(deps: AppDependencies): ApplicationFunction {
  return (app) => {
    const { intake, log } = deps;
    if (!(app instanceof NoMistakesProbot))
      throw new Error(
        "no-mistakes is loaded into NoMistakesProbot (src/server/no-mistakes-probot.ts), which serves its webhooks",
      );
    const { events } = app;
    events.on(
      [
        "pull_request.opened",
        "pull_request.reopened",
        "pull_request.ready_for_review",
        "pull_request.synchronize",
        "pull_request.labeled",
        "pull_request.unlabeled",
        "pull_request.edited",
      ],
      async (event) => onPullRequest(event, intake, log),
    );
    events.on("pull_request.closed", async (event) => onPullRequestClosed(event, intake, log));
    events.on("check_run.rerequested", async (event) => onCheckRunRerequested(event, intake, log));
    events.on("issue_comment.created", async (event) => onIssueComment(event, intake, log));
    events.on("pull_request_review_comment.created", async (event) => onReviewComment(event, intake, log));
  };
}
