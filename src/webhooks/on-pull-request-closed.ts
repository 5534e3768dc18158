import type { Context } from "probot";
import { findRun, updateRun } from "../db/runs.js";
import { recordDelivery } from "../db/webhook-deliveries.js";
import type { WebhookDeps } from "./webhook-deps.js";

/** A closed PR closes its run: sessions are kept, but nothing runs until it is reopened. */
export async function onPullRequestClosed(context: Context<"pull_request.closed">, deps: WebhookDeps): Promise<void> {
  if (!(await recordDelivery(deps.db, context.id, context.name))) return;
  const run = await findRun(deps.db, context.payload.repository.id, context.payload.pull_request.number);
  if (run) await updateRun(deps.db, run.id, { state: "closed" });
  deps.log.info({ deliveryId: context.id, runId: run?.id }, "run closed");
}
