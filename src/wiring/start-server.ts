import { join } from "node:path";
import type { Logger } from "pino";
import { Probot, ProbotOctokit, Server } from "probot";
import { NoMistakesProbot } from "../server/no-mistakes-probot.js";
import { createApp } from "../app.js";
import { createAgents } from "./create-agents.js";
import { startRunQueue } from "./start-run-queue.js";
import { startWorkerProcess, type WorkerProcess } from "./start-worker-process.js";
import { startWorkers } from "./start-workers.js";
import { createSandbox } from "../agents/create-agent.js";
import type { EnvConfig } from "../config/env-config.js";
import type { DatabaseHandle } from "../db/database.js";
import { migrateDatabase } from "../db/migrate-database.js";
import { openDatabase } from "../db/open-database.js";
import { countGitHubRequests } from "../github/count-github-requests.js";
import { logGitHubRetries } from "../github/log-github-retries.js";
import { openWebhookIntake } from "../intake/open-webhook-intake.js";
import { startDeliverySweep, type DeliverySweep } from "../intake/start-delivery-sweep.js";
import { startMetrics } from "../metrics/start-metrics.js";
import type { WebhookIntake } from "../intake/webhook-intake.js";
import type { RunQueue } from "../queue/run-queue.js";
import { Refusals } from "../refusals/refusals.js";
import { VERSION } from "../version.js";
import { checkAgentSandbox, type SandboxStatus } from "../agents/sandbox/check-agent-sandbox.js";
import { guardSetupRoutes, type SetupRouteGuard } from "../server/guard-setup-routes.js";
import { createHealthHandler } from "../server/health-handler.js";
import { createRootPage } from "../server/root-page.js";
import { bannerLine } from "../server/banner-line.js";
import { logRequests } from "../server/log-requests.js";
import { quietProbotLog } from "../server/quiet-probot-log.js";
import { webhookAddress } from "../server/webhook-address.js";
import { loadSetupAppFactory } from "../server/load-setup-app.js";
import { saveEnvFile } from "../server/save-env-file.js";
import { createSmeeChannel } from "../server/create-smee-channel.js";
import { resolveSetupWebhook } from "../server/resolve-setup-webhook.js";
import { showWebhookOnSetupPage } from "../server/show-webhook-on-setup-page.js";
import { startWebhookProxy, type WebhookProxy } from "../server/start-webhook-proxy.js";
import { createWebAuth } from "../web/auth/web-auth.js";
import { createWebHandler } from "../web/create-web-handler.js";

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

/** Opens and migrates the database, then serves the app (or GitHub's setup flow without APP_ID). */
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
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: join(config.dataDir, "pglite"),
    embeddedBuffersMb: config.embeddedBuffersMb,
  });
  await migrateDatabase(database);
  log.info({ database: database.kind }, "database ready");

  let queue: RunQueue | undefined;
  let intake: WebhookIntake | undefined;
  let workerProcess: WorkerProcess | undefined;
  const metrics = await startMetrics({
    config: config.metrics,
    log,
    database,
    webhookPath: config.webhookPath,
    queue: () => queue,
    intake: () => intake,
    more: async () => workerProcess?.metrics(),
  });
  // This process's refusals — webhook requests, the intake, inline workers — counted and kept for the operator page.
  const refusals = new Refusals({ db: database.db, log, metrics: metrics.metrics, secrets: config.secrets });

  const mode = config.app ? "app" : "setup";
  const probotOptions = config.app
    ? { appId: config.app.appId, privateKey: config.app.privateKey, secret: config.app.webhookSecret }
    : { appId: 1, privateKey: "unused in setup mode", secret: "development" };
  const server = new Server({
    host: config.host,
    // Probot reads 0 as "unset" (and would take 3000); the string "0" reaches listen() as "any free port".
    port: config.port === 0 ? ("0" as unknown as number) : config.port,
    webhookPath: config.webhookPath,
    // Probot's banner and per-request lines (with every header) go to debug: logRequests and bannerLine say it in one line.
    log: quietProbotLog(log), // WEBHOOK_PROXY_URL is forwarded by startWebhookProxy, once the server listens
    Probot: (config.app ? NoMistakesProbot : Probot).defaults({
      ...probotOptions,
      ...(config.app ? { acceptWebhooks: answersWebhooks, refusals } : {}),
      baseUrl: config.github.baseUrl,
      log,
      Octokit: logGitHubRetries(countGitHubRequests(ProbotOctokit, metrics.metrics)),
    }),
  });
  let setupGuard: SetupRouteGuard | undefined;
  let stopping = false;
  let probotApp: Probot | undefined;
  let sweep: DeliverySweep | undefined;
  let proxy: WebhookProxy | undefined;
  const health = createHealthHandler({
    version: VERSION,
    mode,
    role: config.app ? config.role : undefined,
    database,
    sandbox: sandboxStatus,
    intake: () => intake,
    queue: () => queue,
    stopping: () => stopping,
    workers: () => workerProcess?.state(),
  });
  server.addHandler(health);
  server.addHandler(metrics.handler);
  if (config.app) {
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
  }
  // The run view is served where webhooks are (ROLE=all or web); a worker process serves no pages.
  if (config.app && answersWebhooks) {
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
  const agents = config.app && sandbox && !workersApart ? createAgents(config, sandbox) : undefined;
  if (config.app) {
    const runQueue = await startRunQueue(config, database, log);
    queue = runQueue;
    // Applies what a stopped process accepted but had not applied, then whatever arrives.
    // With the worker process started on demand: a delivery that queued a job starts it.
    if (answersWebhooks)
      intake = openWebhookIntake({
        dataDir: config.dataDir,
        database,
        queue,
        log,
        metrics: metrics.metrics,
        refusals,
        onApplied: () => workerProcess?.wakeIfWork("a delivery queued a job"),
      });
    const webhooks = intake && createApp({ intake, log });
    await server.load(async (app, options) => {
      probotApp = app; // the delivery sweep reads the App's delivery log as the App
      if (webhooks) await webhooks(app, options);
      if (agents)
        await startWorkers(app, {
          config,
          database,
          ...agents,
          queue: runQueue,
          log,
          metrics: metrics.metrics,
          refusals,
        });
      if (workersApart) {
        workerProcess = startWorkerProcess({
          log,
          embeddedSocket: embeddedSocketOf(database),
          idleExitMs: config.workerIdleExitMs,
          hasWork: async () => (await runQueue.pending()) > 0,
          sweepIntervalMs: config.redeliver.intervalMs,
          stopGraceMs: config.stopGraceMs,
        });
        // Jobs left from before this start (an earlier crash, a retry due later) are worked now.
        workerProcess.wakeIfWork("jobs are queued at start");
      }
      log.info(
        {
          agent: works ? config.agent.name : undefined,
          webhooks: intake !== undefined,
          workers: workersApart ? "process" : agents ? "inline" : "none",
          database: database.kind,
        },
        "no-mistakes loaded",
      );
    });
  } else {
    // The webhook channel is made here (resolveSetupWebhook), not by Probot's setup.
    process.env.NO_SMEE_SETUP ??= "true";
    const setupLog = quietProbotLog(log.child({ name: "setup" }));
    const hook = await resolveSetupWebhook({
      config,
      createChannel: options.createWebhookChannel ?? (() => createSmeeChannel()),
      log: setupLog,
    });
    const setupAppFactory = await loadSetupAppFactory();
    const probotSetup = setupAppFactory({
      host: config.host,
      port: config.port,
      log: setupLog,
      // The App's credentials go to ENV_FILE, read at the next start. A channel made for this setup is saved
      // with them: the registered app forwards from it.
      updateEnv: (env) =>
        saveEnvFile(
          config.envFile,
          "via" in hook && hook.via === "new-channel" ? { ...env, WEBHOOK_PROXY_URL: hook.url } : env,
        ),
    });
    // Its routes write .env: they answer only whoever opens the URL with the one-time code logged below.
    const guarded = guardSetupRoutes<Parameters<typeof probotSetup>[0], Parameters<typeof probotSetup>[1]>(
      async (app, factoryOptions) =>
        showWebhookOnSetupPage(await probotSetup(app, factoryOptions), hook, config.webhookPath, config.publicUrl),
    );
    await server.loadHandlerFactory(guarded.handlerFactory);
    setupGuard = guarded;
  }
  const httpServer = await server.start();
  metrics.observe(httpServer);
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logRequests(httpServer, log);
  log.info(
    { port, mode, ...(config.app ? { role: config.role } : {}), version: VERSION },
    bannerLine({
      version: VERSION,
      mode,
      host: config.host,
      port,
      webhookPath: config.webhookPath,
      webhookUrl: webhookAddress(config)?.url,
    }),
  );
  setupGuard?.listen(httpServer, log, config.host); // keeps the code out of the request log; logs the URL to open
  if (config.app && answersWebhooks && config.webhookProxyUrl) {
    proxy = await startWebhookProxy({
      source: config.webhookProxyUrl,
      host: config.host,
      port,
      webhookPath: config.webhookPath,
      log,
    });
  }
  // Deliveries GitHub could not make while no process answered: redelivered by a process that runs workers
  // (one at a time) — this one when its workers are here, else the worker process (worker-process.ts). It
  // is background work: a JWT signed, pages of GitHub's log read and compared with the database, which
  // held the thread that answers webhooks for tens of ms.
  if (probotApp && agents && config.redeliver.intervalMs !== null) {
    sweep = startDeliverySweep({
      app: probotApp,
      database,
      intervalMs: config.redeliver.intervalMs,
      maxAttempts: config.redeliver.maxAttempts,
      log,
    });
  }

  return {
    server,
    database,
    port,
    async stop() {
      stopping = true; // /ready says 503 from now on: load balancers stop sending deliveries here
      await sweep?.stop();
      // Workers take no new job; running turns get the grace period, then are stopped and handed back.
      // Meanwhile the listener still answers webhooks into the journal.
      await Promise.all([workerProcess?.stop(config.stopGraceMs), queue?.stopWorking(config.stopGraceMs)]);
      await proxy?.stop();
      await server.stop(); // no new deliveries; the ones answered are in the journal
      await intake?.stop();
      await queue?.stop(0);
      await metrics.stop();
      await refusals.stop(); // the webhook refusals a window still holds
      await database.close();
    },
  };
}

/** The embedded database's socket directory, for the worker process to connect to (undefined on PostgreSQL). */
function embeddedSocketOf(database: DatabaseHandle): string | undefined {
  if (database.kind !== "pglite" || !database.url) return undefined;
  return new URL(database.url).searchParams.get("host") ?? undefined;
}
