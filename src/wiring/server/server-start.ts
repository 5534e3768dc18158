// The server's phases, as startServer (../start-server.ts) runs them: openStore, openMetricsAndRefusals,
// createHttpServer and addPages, then loadApp after openIntake (the registered App) or loadSetup (the
// setup flow), startListening; stopServer undoes them. This file is the record they pass along.

import type { Logger } from "pino";
import type { Server } from "probot";
import type { EnvConfig } from "../../config/env/env-config.js";
import type { DatabaseHandle } from "../../db/database.js";
import type { DeliverySweep } from "../../intake/start-delivery-sweep.js";
import type { WebhookIntake } from "../../intake/webhook-intake.js";
import type { StartedMetrics } from "../../metrics/start-metrics.js";
import type { RunQueue } from "../../queue/run-queue.js";
import type { Refusals } from "../../refusals/refusals.js";
import type { WebhookProxy } from "../../server/webhook/start-webhook-proxy.js";
import type { WorkerProcess } from "../start-worker-process.js";

/** One start of the server, as its phases pass it along (see startServer). */
export interface ServerStart {
  config: EnvConfig;
  log: Logger;
  /** Agents run in this process or its worker process: the App is registered and ROLE is not web. */
  works: boolean;
  /** ROLE=all with WORKERS=process: the workers run in a child process, not on this event loop. */
  workersApart: boolean;
  /** Not ROLE=worker: this process answers webhooks (and serves the run view). */
  answersWebhooks: boolean;
  database: DatabaseHandle;
  metrics: StartedMetrics;
  refusals: Refusals;
  server: Server;
  /** Filled by the later phases; read by what an earlier one built (health, metrics, the intake) and by stop. */
  late: LateParts;
}

/** The parts built after the handlers that ask for them, and whether the server is stopping. */
export interface LateParts {
  queue?: RunQueue;
  intake?: WebhookIntake;
  workerProcess?: WorkerProcess;
  proxy?: WebhookProxy;
  sweep?: DeliverySweep;
  stopping: boolean;
}
