import type { EmitterWebhookEvent } from "@octokit/webhooks";
import type { Logger } from "pino";
import type { Intake } from "../intake/webhook-intake.js";
import { CHECK_NAME } from "../domain/check-name.js";
import { checkRunRerequestedShape } from "./check-run-rerequested-shape.js";
import { readPayload } from "./read-payload.js";

/** "Re-run" on this app's check run (other apps' checks are not ours to answer). */
export function onCheckRunRerequested(
  context: EmitterWebhookEvent<"check_run.rerequested">,
  intake: Intake,
  log: Logger,
): void {
  const payload = readPayload(checkRunRerequestedShape, context, log);
  if (!payload) return;
  const { check_run: check, repository, sender } = payload;
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
