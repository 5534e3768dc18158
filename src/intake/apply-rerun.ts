import { findRun, findRunByHead } from "../db/runs.js";
import { recordDelivery } from "../db/webhook-deliveries.js";
import type { IntakeDeps } from "./intake-deps.js";
import { redeliveryIgnored } from "./redelivery-ignored.js";
import { replayIgnored } from "./replay-ignored.js";
import type { RerunRecord } from "./intake-record.js";

/** "Re-run" on this app's check run: review again. */
export async function applyRerun(record: RerunRecord, deps: IntakeDeps): Promise<void> {
  const { deliveryId, bodyDigest } = record;
  const outcome = await deps.transaction(async (tx) => {
    const recorded = await recordDelivery(tx.db, { deliveryId, event: "check_run", bodyDigest });
    if (recorded !== "new") return recorded;
    const run =
      record.prNumber !== null
        ? await findRun(tx.db, record.repositoryId, record.prNumber)
        : await findRunByHead(tx.db, record.repositoryId, record.headSha);
    if (!run) return "unknown" as const;
    await deps.enqueue(
      {
        runId: run.id,
        trigger: "rerequested",
        deliveryId,
        senderLogin: record.sender.login,
        senderType: record.sender.type,
      },
      tx,
    );
    return { runId: run.id };
  });
  if (outcome === "redelivery") return redeliveryIgnored(deps, deliveryId, "check_run");
  if (outcome === "unknown")
    return deps.log.info({ deliveryId }, "re-run requested for a PR this app has not seen; ignored");
  if ("replayOf" in outcome) return replayIgnored(deps, deliveryId, "check_run", outcome.replayOf);
  deps.log.info({ deliveryId, runId: outcome.runId }, "review re-requested");
}
