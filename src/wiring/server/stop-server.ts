import type { ServerStart } from "./server-start.js";

/**
 * Stops in the order that loses nothing: readiness first, then the workers (running turns get the grace
 * period), then the listener, the intake, the queue, the metrics, the refusals and the database.
 */
export async function stopServer(start: ServerStart): Promise<void> {
  const { late } = start;
  late.stopping = true; // /ready says 503 from now on: load balancers stop sending deliveries here
  await late.sweep?.stop();
  // Workers take no new job; running turns get the grace period, then are stopped and handed back.
  // Meanwhile the listener still answers webhooks into the journal.
  await Promise.all([
    late.workerProcess?.stop(start.config.stopGraceMs),
    late.queue?.stopWorking(start.config.stopGraceMs),
  ]);
  await late.proxy?.stop();
  await start.server.stop(); // no new deliveries; the ones answered are in the journal
  await late.intake?.stop();
  await late.queue?.stop(0);
  await start.metrics.stop();
  await start.refusals.stop(); // the webhook refusals a window still holds
  await start.database.close();
}
