import { join } from "node:path";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/database.js";
import type { Metrics } from "../metrics/metrics.js";
import type { Refusals } from "../refusals/refusals.js";
import type { RunQueue } from "../queue/run-queue.js";
import { applyRecord, applyRecords, applyTogether } from "./apply-record.js";
import { createIntakeDeps } from "./intake-deps.js";
import { WebhookIntake } from "./webhook-intake.js";

/** Pull request events written by one statement at most (its JSON parameter stays in the hundreds of KB). */
const MAX_GROUP = 100;

/**
 * While deliveries keep coming, how long the intake lets them gather before it writes them: at a busy
 * installation's rates (tens a second) they share statements — one round trip for several, which is most
 * of what a delivery costs the process answering webhooks (bench: ack, CPU per delivery) — at the cost of
 * up to this much more time between a delivery's 2xx and its review being queued: next to a review's
 * minutes, nothing, and the journal keeps them meanwhile. A delivery after a quiet spell is written at once.
 */
const LINGER_MS = 100;

/** The intake over DATA_DIR/intake, applying records to this database and queue, pull request events grouped. */
export function openWebhookIntake(options: {
  dataDir: string;
  database: DatabaseHandle;
  queue: RunQueue;
  log: Logger;
  maxBacklog?: number;
  metrics?: Metrics;
  refusals?: Refusals;
  /** Called after each apply that committed (a job may have been queued with it). */
  onApplied?: () => void;
}): WebhookIntake {
  const deps = createIntakeDeps(options);
  const applied = () => options.onApplied?.();
  return WebhookIntake.open({
    dir: join(options.dataDir, "intake"),
    apply: (record) => applyRecord(record, deps).then(applied),
    batches: {
      size: (pending) => applyTogether(pending, MAX_GROUP),
      apply: (records) => applyRecords(records, deps).then(applied),
      lingerMs: LINGER_MS,
    },
    log: options.log,
    maxBacklog: options.maxBacklog,
    metrics: options.metrics,
    refusals: options.refusals,
  });
}
