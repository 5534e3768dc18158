import type { Probot } from "probot";
import { createApp } from "../../app.js";
import type { DatabaseHandle } from "../../db/database.js";
import type { RunQueue } from "../../queue/run-queue.js";
import type { createAgents } from "../create-agents.js";
import { startWorkerProcess } from "../start-worker-process.js";
import { startWorkers } from "../start-workers.js";
import type { ServerStart } from "./server-start.js";

/**
 * The registered App: its webhooks (events into the intake), and the workers — here (`agents` given), in
 * the worker process (ROLE=all, WORKERS=process) or none (ROLE=web). Resolves to the App, as the delivery
 * sweep reads the App's delivery log as the App.
 */
export async function loadApp(
  start: ServerStart,
  queue: RunQueue,
  agents: ReturnType<typeof createAgents> | undefined,
): Promise<Probot | undefined> {
  const { config, database, log, late } = start;
  const webhooks = late.intake && createApp({ intake: late.intake, log });
  let probotApp: Probot | undefined;
  await start.server.load(async (app, options) => {
    probotApp = app;
    if (webhooks) await webhooks(app, options);
    if (agents)
      await startWorkers(app, {
        config,
        database,
        ...agents,
        queue,
        log,
        metrics: start.metrics.metrics,
        refusals: start.refusals,
      });
    if (start.workersApart) {
      late.workerProcess = startWorkerProcess({
        log,
        embeddedSocket: embeddedSocketOf(database),
        idleExitMs: config.workerIdleExitMs,
        hasWork: async () => (await queue.pending()) > 0,
        sweepIntervalMs: config.redeliver.intervalMs,
        stopGraceMs: config.stopGraceMs,
      });
      // Jobs left from before this start (an earlier crash, a retry due later) are worked now.
      late.workerProcess.wakeIfWork("jobs are queued at start");
    }
    log.info(
      {
        agent: start.works ? config.agent.name : undefined,
        webhooks: late.intake !== undefined,
        workers: start.workersApart ? "process" : agents ? "inline" : "none",
        database: database.kind,
      },
      "no-mistakes loaded",
    );
  });
  return probotApp;
}

/** The embedded database's socket directory, for the worker process to connect to (undefined on PostgreSQL). */
function embeddedSocketOf(database: DatabaseHandle): string | undefined {
  if (database.kind !== "pglite" || !database.url) return undefined;
  return new URL(database.url).searchParams.get("host") ?? undefined;
}
