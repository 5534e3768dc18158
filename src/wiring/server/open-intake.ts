import { openWebhookIntake } from "../../intake/open-webhook-intake.js";
import type { RunQueue } from "../../queue/run-queue.js";
import { startRunQueue } from "../start-run-queue.js";
import type { ServerStart } from "./server-start.js";

/**
 * The run queue, and where webhooks are answered the intake: it applies what a stopped process accepted
 * but had not applied, then whatever arrives. With the worker process started on demand, a delivery that
 * queued a job starts it.
 */
export async function openIntake(start: ServerStart): Promise<RunQueue> {
  const { config, database, log, late } = start;
  const queue = await startRunQueue(config, database, log);
  late.queue = queue;
  if (start.answersWebhooks)
    late.intake = openWebhookIntake({
      dataDir: config.dataDir,
      database,
      queue,
      log,
      metrics: start.metrics.metrics,
      refusals: start.refusals,
      onApplied: () => late.workerProcess?.wakeIfWork("a delivery queued a job"),
    });
  return queue;
}
