import { join } from "node:path";
import type { Logger } from "pino";
import type { DatabaseHandle } from "../db/database.js";
import type { Metrics } from "../metrics/metrics.js";
import type { RunQueue } from "../queue/run-queue.js";
import { applyRecord } from "./apply-record.js";
import { createIntakeDeps } from "./intake-deps.js";
import { WebhookIntake } from "./webhook-intake.js";

/** The intake over DATA_DIR/intake, applying records to this database and queue. */
export function openWebhookIntake(options: {
  dataDir: string;
  database: DatabaseHandle;
  queue: RunQueue;
  log: Logger;
  maxBacklog?: number;
  metrics?: Metrics;
}): WebhookIntake {
  const deps = createIntakeDeps(options);
  return WebhookIntake.open({
    dir: join(options.dataDir, "intake"),
    apply: (record) => applyRecord(record, deps),
    log: options.log,
    maxBacklog: options.maxBacklog,
    metrics: options.metrics,
  });
}
