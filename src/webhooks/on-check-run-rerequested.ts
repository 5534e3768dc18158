import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Intake } from "../intake/webhook-intake.js";
import { CHECK_NAME } from "../pipeline/ensure-check-run.js";

/** "Re-run" on this app's check run (other apps' checks are not ours to answer). */
export function onCheckRunRerequested(context: EmitterWebhookEvent<"check_run.rerequested">, intake: Intake): void {
  const { check_run: check, repository, sender } = context.payload;
  if (check.name !== CHECK_NAME) return;
  intake.accept({
    kind: "rerun",
    deliveryId: context.id,
    repositoryId: repository.id,
    prNumber: check.pull_requests[0]?.number ?? null,
    headSha: check.head_sha,
    sender: { login: sender.login, type: sender.type },
  });
}
