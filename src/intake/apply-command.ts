import { recordDelivery } from "../db/webhook-deliveries.js";
import type { IntakeDeps } from "./intake-deps.js";
import { redeliveryIgnored } from "./redelivery-ignored.js";
import type { CommandRecord } from "./intake-record.js";

/** Queues a `/no-mistakes` command on the fast command queue, with its delivery, in one transaction. */
export async function applyCommand(record: CommandRecord, deps: IntakeDeps): Promise<void> {
  const { deliveryId, job } = record;
  const queued = await deps.transaction(async (tx) => {
    if (!(await recordDelivery(tx.db, deliveryId, "issue_comment"))) return false;
    await deps.enqueueCommand(job, tx);
    return true;
  });
  if (!queued) return redeliveryIgnored(deps, deliveryId, "issue_comment");
  deps.log.info({ deliveryId, command: job.command.kind, pr: job.prNumber }, "command queued");
}
