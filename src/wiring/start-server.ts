import type { Logger } from "pino";
import type { Probot, Server } from "probot";
import { createAgents } from "./create-agents.js";
import { createSandbox } from "../agents/create-agent.js";
import type { EnvConfig } from "../config/env/env-config.js";
import type { DatabaseHandle } from "../db/database.js";
import { startDeliverySweep } from "../intake/start-delivery-sweep.js";
import { checkAgentSandbox, type SandboxStatus } from "../agents/sandbox/check-agent-sandbox.js";
import type { SetupRouteGuard } from "../server/setup/guard-setup-routes.js";
import { addPages } from "./server/add-pages.js";
import { createHttpServer } from "./server/create-http-server.js";
import { loadApp } from "./server/load-app.js";
import { loadSetup } from "./server/load-setup.js";
import { openIntake } from "./server/open-intake.js";
import { openMetricsAndRefusals } from "./server/open-metrics-and-refusals.js";
import { openStore } from "./server/open-store.js";
import type { LateParts, ServerStart } from "./server/server-start.js";
import { startListening } from "./server/start-listening.js";
import { stopServer } from "./server/stop-server.js";

export interface RunningServer {
  server: Server;
  database: DatabaseHandle;
  port: number;
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** Makes a webhook proxy channel for the setup flow (default: a new smee.io channel). */
  createWebhookChannel?: () => Promise<string>;
}

/**
 * Opens and migrates the database, then serves the app (or GitHub's setup flow without APP_ID), in
 * phases: the store, metrics and refusals, the HTTP server and its pages, then the App (the intake and
 * the workers) or the setup flow, listening, the delivery sweep; `stop` undoes them in order.
 */
export async function startServer(
  config: EnvConfig,
  log: Logger,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  // Agents only run once the App is registered, in worker processes; there they must be confined (or the
  // operator opted out).
  const works = config.app !== undefined && config.role !== "web";
  // ROLE=all runs its workers in a process of their own (WORKERS=process, the default): no review work on
  // the event loop that answers webhooks.
  const workersApart = works && config.role === "all" && config.workers === "process";
  const answersWebhooks = config.role !== "worker";
  const sandbox = works ? createSandbox(config) : undefined;
  const sandboxStatus: SandboxStatus | undefined = sandbox ? await checkAgentSandbox(config, sandbox, log) : undefined;
  const database = await openStore(config, log);
  const late: LateParts = { stopping: false };
  const { metrics, refusals } = await openMetricsAndRefusals(config, log, database, late);
  const server = createHttpServer(config, log, metrics.metrics, refusals, answersWebhooks);
  const start: ServerStart = {
    config,
    log,
    works,
    workersApart,
    answersWebhooks,
    database,
    metrics,
    refusals,
    server,
    late,
  };
  addPages(start, sandboxStatus);
  const agents = config.app && sandbox && !workersApart ? createAgents(config, sandbox) : undefined;
  let probotApp: Probot | undefined;
  let setupGuard: SetupRouteGuard | undefined;
  if (config.app) probotApp = await loadApp(start, await openIntake(start), agents);
  else setupGuard = await loadSetup(start, options.createWebhookChannel);
  const port = await startListening(start, setupGuard);
  // Deliveries GitHub could not make while no process answered: redelivered by a process that runs workers
  // (one at a time) — this one when its workers are here, else the worker process (worker-process.ts). It
  // is background work: a JWT signed, pages of GitHub's log read and compared with the database, which
  // held the thread that answers webhooks for tens of ms.
  if (probotApp && agents && config.redeliver.intervalMs !== null) {
    late.sweep = startDeliverySweep({
      app: probotApp,
      database,
      intervalMs: config.redeliver.intervalMs,
      maxAttempts: config.redeliver.maxAttempts,
      log,
    });
  }
  return { server, database, port, stop: () => stopServer(start) };
}
