import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Logger } from "pino";
import type { Intake } from "../intake/webhook-intake.js";
import { pullRequestClosedShape } from "./pull-request-closed-shape.js";
import { readPayload } from "./read-payload.js";

/** A closed PR: its run closes (applied by the intake), and keeps whether GitHub merged it and who did. */
export function onPullRequestClosed(
  context: EmitterWebhookEvent<"pull_request.closed">,
  intake: Intake,
  log: Logger,
): void {
  const payload = readPayload(pullRequestClosedShape, context, log);
  if (!payload) return;
  const pr = payload.pull_request;
  intake.accept({
    kind: "pull_request_closed",
    deliveryId: context.id,
    repositoryId: payload.repository.id,
    prNumber: pr.number,
    ...(pr.merged === true && pr.merged_at && !Number.isNaN(Date.parse(pr.merged_at))
      ? { merged: { at: pr.merged_at, by: pr.merged_by?.login ?? null } }
      : {}),
  });
}
