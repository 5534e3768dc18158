import { quietProbotLog } from "../../server/quiet-probot-log.js";
import { createSmeeChannel } from "../../server/setup/create-smee-channel.js";
import { guardSetupRoutes, type SetupRouteGuard } from "../../server/setup/guard-setup-routes.js";
import { loadSetupAppFactory } from "../../server/setup/load-setup-app.js";
import { resolveSetupWebhook } from "../../server/setup/resolve-setup-webhook.js";
import { saveEnvFile } from "../../server/setup/save-env-file.js";
import { showWebhookOnSetupPage } from "../../server/setup/show-webhook-on-setup-page.js";
import type { ServerStart } from "./server-start.js";

/**
 * Before the App is registered: Probot's setup flow (it registers the App from its manifest), with a
 * webhook URL GitHub can reach, behind the one-time code.
 */
export async function loadSetup(
  start: ServerStart,
  createWebhookChannel: (() => Promise<string>) | undefined,
): Promise<SetupRouteGuard> {
  const { config, log } = start;
  // The webhook channel is made here (resolveSetupWebhook), not by Probot's setup.
  process.env.NO_SMEE_SETUP ??= "true";
  const setupLog = quietProbotLog(log.child({ name: "setup" }));
  const hook = await resolveSetupWebhook({
    config,
    createChannel: createWebhookChannel ?? (() => createSmeeChannel()),
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
  await start.server.loadHandlerFactory(guarded.handlerFactory);
  return guarded;
}
