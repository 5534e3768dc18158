import type { SandboxStatus } from "../../agents/sandbox/check-agent-sandbox.js";
import { createHealthHandler } from "../../server/health/health-handler.js";
import { createRootPage } from "../../server/root-page.js";
import { webhookAddress } from "../../config/env/webhook-address.js";
import { VERSION } from "../../version.js";
import { createWebAuth } from "../../web/auth/web-auth.js";
import { createWebHandler } from "../../web/create-web-handler.js";
import type { ServerStart } from "./server-start.js";

/** The server's pages: health and readiness, the metrics, and in app mode the root page and the run view. */
export function addPages(start: ServerStart, sandbox: SandboxStatus | undefined): void {
  const { config, log, database, server, late } = start;
  const health = createHealthHandler({
    version: VERSION,
    mode: config.app ? "app" : "setup",
    role: config.app ? config.role : undefined,
    database,
    sandbox,
    intake: () => late.intake,
    queue: () => late.queue,
    stopping: () => late.stopping,
    workers: () => late.workerProcess?.state(),
  });
  server.addHandler(health);
  server.addHandler(start.metrics.handler);
  if (!config.app) return;
  server.addHandler(
    createRootPage({
      name: "no-mistakes",
      version: VERSION,
      status: health.status,
      github: config.github,
      webhookPath: config.webhookPath,
      webhookUrl: webhookAddress(config)?.url,
    }),
  );
  // The run view is served where webhooks are (ROLE=all or web); a worker process serves no pages.
  if (!start.answersWebhooks) return;
  const webLog = log.child({ name: "web" });
  const auth = createWebAuth({ database: database.db, config, log: webLog });
  server.addHandler(
    createWebHandler({
      db: database.db,
      auth,
      webOrigin: config.github.webOrigin,
      log: webLog,
      secrets: config.secrets,
    }),
  );
}
