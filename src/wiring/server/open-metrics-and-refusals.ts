import type { Logger } from "pino";
import type { EnvConfig } from "../../config/env/env-config.js";
import type { DatabaseHandle } from "../../db/database.js";
import { startMetrics, type StartedMetrics } from "../../metrics/start-metrics.js";
import { Refusals } from "../../refusals/refusals.js";
import type { LateParts } from "./server-start.js";

/** The metrics (the queue, the intake and the worker process's read once they exist) and this process's refusals. */
export async function openMetricsAndRefusals(
  config: EnvConfig,
  log: Logger,
  database: DatabaseHandle,
  late: LateParts,
): Promise<{ metrics: StartedMetrics; refusals: Refusals }> {
  const metrics = await startMetrics({
    config: config.metrics,
    log,
    database,
    webhookPath: config.webhookPath,
    queue: () => late.queue,
    intake: () => late.intake,
    more: async () => late.workerProcess?.metrics(),
  });
  // This process's refusals — webhook requests, the intake, inline workers — counted and kept for the operator page.
  const refusals = new Refusals({ db: database.db, log, metrics: metrics.metrics, secrets: config.secrets });
  return { metrics, refusals };
}
