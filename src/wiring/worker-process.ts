// The worker process ROLE=all starts (see start-worker-process.ts): the app's workers — agent turns and
// command replies — and the failed-delivery sweep in a process of their own, so the process that answers
// webhooks does no review work.
// Configured by the same environment as its parent, plus the embedded database's socket when there is
// one. It stops when its parent asks (running turns get the grace period) or goes away (at once).
// With WORKER_IDLE_EXIT it tells its parent when it has had nothing to do for that long (no job running,
// waiting or retrying — one scheduled for later counts); the parent then stops it and starts it again
// when there is work.
import { Probot, ProbotOctokit } from "probot";
import { createSandbox } from "../agents/create-agent.js";
import { readEnvConfig } from "../config/env/env-config.js";
import type { DatabaseHandle } from "../db/database.js";
import { connectEmbedded, openDatabase } from "../db/open-database.js";
import { countGitHubRequests } from "../metrics/count-github-requests.js";
import { logGitHubRetries } from "../github/log-github-retries.js";
import { createLogger } from "../logging/create-logger.js";
import { resolveLogFormat } from "../logging/resolve-log-format.js";
import { startDeliverySweep, type DeliverySweep } from "../intake/start-delivery-sweep.js";
import { Metrics } from "../metrics/metrics.js";
import { Refusals } from "../refusals/refusals.js";
import { createAgents } from "./create-agents.js";
import { startRunQueue } from "./start-run-queue.js";
import { startWorkers } from "./start-workers.js";
import { EMBEDDED_SOCKET_ENV, type ToWorker } from "./worker-messages.js";

const config = readEnvConfig();
const log = createLogger({
  level: config.logLevel,
  secrets: config.secrets,
  format: resolveLogFormat(config.logFormat, process.stdout.isTTY),
}).child({ process: "worker" });
const app = config.app;
if (!app || !process.send) {
  log.error("the worker process is started by the app (ROLE=all), registered, over IPC");
  process.exit(1);
}

const socket = process.env[EMBEDDED_SOCKET_ENV];
const database: DatabaseHandle = socket
  ? connectEmbedded(socket)
  : await openDatabase({ databaseUrl: config.databaseUrl });
// Its own instruments (no process metrics: those describe the web process); the parent serves them merged.
const metrics = new Metrics({ log, processMetrics: false });
const refusals = new Refusals({ db: database.db, log, metrics, secrets: config.secrets });
const queue = await startRunQueue(config, database, log);
// The parent checked at start that the sandbox confines (or that the operator opted out).
const { agents, sandbox } = createAgents(config, createSandbox(config));
const probot = new Probot({
  appId: app.appId,
  privateKey: app.privateKey,
  baseUrl: config.github.baseUrl,
  log,
  Octokit: logGitHubRetries(countGitHubRequests(ProbotOctokit, metrics)),
});

let sweep: DeliverySweep | undefined;
let stopping: Promise<void> | undefined;
function stop(graceMs: number): Promise<void> {
  stopping ??= (async () => {
    try {
      await sweep?.stop();
      await queue.stopWorking(graceMs);
      await queue.stop(0);
      await refusals.stop();
      await database.close();
    } catch (error) {
      log.error({ err: error }, "worker process: stop failed");
    }
    process.exit(0);
  })();
  return stopping;
}

/** Jobs seen running, waiting or retrying in this process's life (a sweep-only start has none). */
let sawWork = false;
let idleSince = Date.now();
let toldIdle = false;
let watching = false;
/** Tells the parent once when nothing has been to do for `afterMs`. */
async function watchIdle(afterMs: number, reason: string): Promise<void> {
  if (stopping || toldIdle || watching) return;
  watching = true;
  try {
    if (queue.running() > 0 || (await queue.pending()) > 0) {
      sawWork = true;
      idleSince = Date.now();
    } else if (Date.now() - idleSince >= afterMs && !stopping) {
      toldIdle = true;
      process.send?.({ type: "idle", idleMs: Date.now() - idleSince, reason });
    }
  } catch (error) {
    log.warn({ err: error }, "worker process: could not look at the queue; it stays up");
    idleSince = Date.now();
  } finally {
    watching = false;
  }
}

/** Started for the delivery sweep: sweeps at once, then asks to exit unless jobs came meanwhile. */
async function sweepNow(): Promise<void> {
  if (!sweep) return;
  await sweep.sweepNow();
  if (!sawWork) await watchIdle(0, "the delivery sweep is done and no job is queued");
}

process.on("message", (message: ToWorker) => {
  if (message.type === "stop") void stop(message.graceMs);
  else if (message.type === "sweep") void sweepNow();
  else if (message.type === "metrics")
    void metrics.registry.getMetricsAsJSON().then(
      (json) => process.send?.({ type: "metrics", id: message.id, json }),
      () => process.send?.({ type: "metrics", id: message.id, json: [] }),
    );
});
// The parent is gone (killed, crashed): stop at once; the running jobs are handed back by the next worker.
process.on("disconnect", () => void stop(0));
// A terminal's Ctrl-C reaches the whole process group: the parent decides how this process stops.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => {});

await startWorkers(probot, { config, database, agents, sandbox, queue, log, metrics, refusals });
// The failed-delivery sweep is this process's too: background work, kept off the thread that answers webhooks.
if (config.redeliver.intervalMs !== null && !stopping)
  sweep = startDeliverySweep({
    app: probot,
    database,
    intervalMs: config.redeliver.intervalMs,
    maxAttempts: config.redeliver.maxAttempts,
    log,
  });
const idleExitMs = config.workerIdleExitMs;
if (idleExitMs !== null && !stopping) {
  idleSince = Date.now();
  const everyMs = Math.min(5_000, Math.max(250, idleExitMs / 4));
  const reason = `no job running, waiting or retrying for ${Math.round(idleExitMs / 1000)} s`;
  setInterval(() => void watchIdle(idleExitMs, reason), everyMs).unref();
}
log.info(
  { reviewer: agents.reviewer.name, fixer: agents.fixer.name, verifier: agents.verifier.name, database: database.kind },
  "worker process ready",
);
process.send({ type: "ready" });
