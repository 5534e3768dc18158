import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Intake } from "../intake/webhook-intake.js";

/** A closed PR: its run closes (applied by the intake). */
export function onPullRequestClosed(context: EmitterWebhookEvent<"pull_request.closed">, intake: Intake): void {
  intake.accept({ kind: "pull_request_closed", deliveryId: context.id, repositoryId: context.payload.repository.id, prNumber: context.payload.pull_request.number });
}
