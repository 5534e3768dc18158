import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { PullRequestEdit } from "../intake/intake-record.js";
import type { Intake } from "../intake/webhook-intake.js";
import type { Logger } from "pino";
import { readPullRequest, readRepository, runFields } from "../domain/pull-request.js";
import { pullRequestShape } from "./pull-request-shape.js";
import { readPayload } from "./read-payload.js";

const EDITS: readonly PullRequestEdit[] = ["title", "body", "base"];

type PullRequestContext = EmitterWebhookEvent<
  | "pull_request.opened"
  | "pull_request.reopened"
  | "pull_request.ready_for_review"
  | "pull_request.synchronize"
  | "pull_request.labeled"
  | "pull_request.unlabeled"
  | "pull_request.edited"
>;

/**
 * A PR opened, reopened, marked ready, pushed to, (un)labelled or edited: keep what the run needs (and, for
 * an edit, what it changed) and hand it to the intake.
 */
export function onPullRequest(context: PullRequestContext, intake: Intake, log: Logger): void {
  const payload = readPayload(pullRequestShape, context, log);
  if (!payload) return;
  const { installation, pull_request: pr } = payload;
  intake.accept({
    kind: "pull_request",
    deliveryId: context.id,
    action: payload.action,
    sender: { login: payload.sender.login, type: payload.sender.type },
    run: runFields(readRepository(installation.id, payload.repository), readPullRequest(pr)),
    ...(payload.action === "edited" ? { edited: EDITS.filter((field) => payload.changes?.[field]) } : {}),
  });
}
