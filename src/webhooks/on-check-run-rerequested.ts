import type { Context } from "probot";
import { findRun, findRunByHead } from "../db/runs.js";
import { recordDelivery } from "../db/webhook-deliveries.js";
import { CHECK_NAME } from "../pipeline/ensure-check-run.js";
import type { WebhookDeps } from "./webhook-deps.js";

/** "Re-run" on our check run: review again. */
export async function onCheckRunRerequested(context: Context<"check_run.rerequested">, deps: WebhookDeps): Promise<void> {
  const { check_run: check, repository } = context.payload;
  if (check.name !== CHECK_NAME) return;
  const outcome = await deps.transaction(async (tx) => {
    if (!(await recordDelivery(tx.db, context.id, context.name))) return "redelivery" as const;
    const prNumber = check.pull_requests[0]?.number;
    const run = prNumber !== undefined ? await findRun(tx.db, repository.id, prNumber) : await findRunByHead(tx.db, repository.id, check.head_sha);
    if (!run) return "unknown" as const;
    await deps.enqueue({ runId: run.id, trigger: "rerequested", deliveryId: context.id, senderLogin: context.payload.sender.login, senderType: context.payload.sender.type }, tx);
    return { runId: run.id };
  });
  if (outcome === "redelivery") return deps.log.info({ deliveryId: context.id }, "redelivery ignored");
  if (outcome === "unknown") return deps.log.info({ deliveryId: context.id }, "re-run requested for a PR this app has not seen; ignored");
  deps.log.info({ deliveryId: context.id, runId: outcome.runId }, "review re-requested");
}
