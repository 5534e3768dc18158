import type { Context } from "probot";
import { findRun, updateRun } from "../db/runs.js";
import { recordDelivery } from "../db/webhook-deliveries.js";
import type { WebhookDeps } from "./webhook-deps.js";

/** A closed PR closes its run: sessions are kept, but nothing runs until it is reopened. */
export async function onPullRequestClosed(context: Context<"pull_request.closed">, deps: WebhookDeps): Promise<void> {
  const outcome = await deps.transaction(async (tx) => {
    if (!(await recordDelivery(tx.db, context.id, context.name))) return null;
    const run = await findRun(tx.db, context.payload.repository.id, context.payload.pull_request.number);
    if (run) await updateRun(tx.db, run.id, { state: "closed" });
    return { runId: run?.id };
  });
  if (!outcome) return deps.log.info({ deliveryId: context.id }, "redelivery ignored");
  deps.log.info({ deliveryId: context.id, runId: outcome.runId }, "run closed");
}
