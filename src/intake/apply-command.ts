import { recordDelivery } from "../db/webhook-deliveries.js";
import type { IntakeDeps } from "./intake-deps.js";
import { redeliveryIgnored } from "./redelivery-ignored.js";
import { replayIgnored } from "./replay-ignored.js";
import type { CommandRecord } from "./intake-record.js";

/** Queues a `/no-mistakes` command (or a review-thread comment) on the fast command queue, with its delivery, in one transaction. */
export async function applyCommand(record: CommandRecord, deps: IntakeDeps): Promise<void> {
  const { deliveryId, job, bodyDigest } = record;
  const event = record.event ?? "issue_comment";
  const outcome = await deps.transaction(async (tx) => {
    const recorded = await recordDelivery(tx.db, { deliveryId, event, bodyDigest });
    if (recorded === "new") await deps.enqueueCommand(job, tx);
    return recorded;
  });
  if (outcome === "redelivery") return redeliveryIgnored(deps, deliveryId, event);
  if (outcome !== "new") return replayIgnored(deps, deliveryId, event, outcome.replayOf);
  deps.log.info({ deliveryId, command: job.command.kind, pr: job.prNumber }, "command queued");
}
