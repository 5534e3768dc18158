import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Logger } from "pino";
import type { Intake } from "../intake/webhook-intake.js";
import { pullRequestClosedShape } from "./pull-request-closed-shape.js";
import { readPayload } from "./read-payload.js";

/** A closed PR: its run closes (applied by the intake). */
export function onPullRequestClosed(
  context: EmitterWebhookEvent<"pull_request.closed">,
  intake: Intake,
  log: Logger,
): void {
  const payload = readPayload(pullRequestClosedShape, context, log);
  if (!payload) return;
  intake.accept({
    kind: "pull_request_closed",
    deliveryId: context.id,
    repositoryId: payload.repository.id,
    prNumber: payload.pull_request.number,
  });
}
