import { bannerLine } from "../../server/banner-line.js";
import { logRequests } from "../../server/log-requests.js";
import type { SetupRouteGuard } from "../../server/setup/guard-setup-routes.js";
import { startWebhookProxy } from "../../server/webhook/start-webhook-proxy.js";
import { webhookAddress } from "../../config/env/webhook-address.js";
import { VERSION } from "../../version.js";
import type { ServerStart } from "./server-start.js";

/**
 * Listens, says where in one banner line (in setup mode the setup URL with its code after it), and
 * forwards the webhook proxy channel's deliveries once there is a port to forward them to. Resolves to
 * the port.
 */
export async function startListening(start: ServerStart, setupGuard: SetupRouteGuard | undefined): Promise<number> {
  const { config, log } = start;
  const mode = config.app ? "app" : "setup";
  const httpServer = await start.server.start();
  start.metrics.observe(httpServer);
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
  if (config.app && start.answersWebhooks && config.webhookProxyUrl) {
    start.late.proxy = await startWebhookProxy({
      source: config.webhookProxyUrl,
      host: config.host,
      port,
      webhookPath: config.webhookPath,
      log,
    });
  }
  return port;
}
