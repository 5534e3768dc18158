import { recordDelivery } from "../db/webhook-deliveries.js";
import type { IntakeDeps } from "./intake-deps.js";
import { redeliveryIgnored } from "./redelivery-ignored.js";
import type { CommandRecord } from "./intake-record.js";

/** Queues a `/no-mistakes` command (or a review-thread comment) on the fast command queue, with its delivery, in one transaction. */
export async function applyCommand(record: CommandRecord, deps: IntakeDeps): Promise<void> {
  const { deliveryId, job } = record;
  const event = record.event ?? "issue_comment";
  const queued = await deps.transaction(async (tx) => {
    if (!(await recordDelivery(tx.db, deliveryId, event))) return false;
    await deps.enqueueCommand(job, tx);
    return true;
  });
  if (!queued) return redeliveryIgnored(deps, deliveryId, event);
  deps.log.info({ deliveryId, command: job.command.kind, pr: job.prNumber }, "command queued");
}
