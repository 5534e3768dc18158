import type { Context } from "probot";
import { findRun, findRunByHead } from "../db/runs.js";
import { recordDelivery } from "../db/webhook-deliveries.js";
import { CHECK_NAME } from "../pipeline/ensure-check-run.js";
import type { WebhookDeps } from "./webhook-deps.js";

/** "Re-run" on our check run: review again. */
export async function onCheckRunRerequested(context: Context<"check_run.rerequested">, deps: WebhookDeps): Promise<void> {
  const { check_run: check, repository } = context.payload;
  if (check.name !== CHECK_NAME) return;
  if (!(await recordDelivery(deps.db, context.id, context.name))) return;
  const prNumber = check.pull_requests[0]?.number;
  const run = prNumber !== undefined ? await findRun(deps.db, repository.id, prNumber) : await findRunByHead(deps.db, repository.id, check.head_sha);
  if (!run) return deps.log.info({ deliveryId: context.id }, "re-run requested for a PR this app has not seen; ignored");
  await deps.enqueue({ runId: run.id, trigger: "rerequested", deliveryId: context.id, senderLogin: context.payload.sender.login, senderType: context.payload.sender.type });
  deps.log.info({ deliveryId: context.id, runId: run.id }, "review re-requested");
}
