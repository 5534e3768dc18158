import { findRun, updateRun } from "../db/runs.js";
import { recordDelivery } from "../db/webhook-deliveries.js";
import type { IntakeDeps } from "./intake-deps.js";
import { redeliveryIgnored } from "./redelivery-ignored.js";
import { replayIgnored } from "./replay-ignored.js";
import type { PullRequestClosedRecord } from "./intake-record.js";

/**
 * A closed PR closes its run: sessions are kept, but nothing runs until it is reopened. A merge is kept
 * with it (when, by whom): findings fixed in a merged PR are decisions a writer made.
 */
export async function applyPullRequestClosed(record: PullRequestClosedRecord, deps: IntakeDeps): Promise<void> {
  const { deliveryId, bodyDigest } = record;
  const outcome = await deps.transaction(async (tx) => {
    const recorded = await recordDelivery(tx.db, { deliveryId, event: "pull_request", bodyDigest });
    if (recorded !== "new") return recorded;
    const run = await findRun(tx.db, record.repositoryId, record.prNumber);
    const merged = record.merged ? { mergedAt: new Date(record.merged.at), mergedBy: record.merged.by } : {};
    if (run) await updateRun(tx.db, run.id, { state: "closed", ...merged });
    return { runId: run?.id };
  });
  if (outcome === "redelivery") return redeliveryIgnored(deps, deliveryId, "pull_request");
  if ("replayOf" in outcome) return replayIgnored(deps, deliveryId, "pull_request", outcome.replayOf);
  deps.log.info({ deliveryId, runId: outcome.runId, merged: !!record.merged }, "run closed");
}
