import type { Logger } from "pino";
import { webhookAddress } from "../../config/env/webhook-address.js";

/** What the setup page registers as the App's webhook URL: one GitHub can reach, or why there is none. */
export type SetupWebhook =
  { url: string; via: "proxy" | "public" | "new-channel" } | { url?: undefined; problem: string };

export const UNREACHABLE =
  "GitHub cannot reach localhost: webhooks registered now would never arrive. Set WEBHOOK_PROXY_URL to a smee.io channel (open https://smee.io/new) or PUBLIC_URL to the address where GitHub reaches this app, then restart";

/**
 * The webhook URL for the App about to be registered: WEBHOOK_PROXY_URL, else PUBLIC_URL plus the
 * webhook path, else (not in production) a new smee.io channel — saved with the App's credentials,
 * so the registered app forwards from it. When none can be had, the log says so and what to set.
 */
export async function resolveSetupWebhook(options: {
  config: { webhookProxyUrl?: string; publicUrl?: string; webhookPath: string; production: boolean };
  createChannel: () => Promise<string>;
  log: Logger;
}): Promise<SetupWebhook> {
  const { config, log } = options;
  const known = webhookAddress(config);
  if (known) {
    log.info({ webhookUrl: known.url, via: known.via }, "setup: GitHub will send the App's webhooks here");
    return known;
  }
  if (!config.production) {
    try {
      const channel = await options.createChannel();
      log.info(
        { webhookUrl: channel },
        `setup: created the webhook proxy channel ${channel}; GitHub will send the App's webhooks there and this app forwards them (WEBHOOK_PROXY_URL is saved to .env with the App's credentials)`,
      );
      return { url: channel, via: "new-channel" };
    } catch (error) {
      log.warn({ err: error }, `setup: could not create a smee.io webhook channel. ${UNREACHABLE}`);
      return { problem: UNREACHABLE };
    }
  }
  log.warn(`setup: ${UNREACHABLE}`);
  return { problem: UNREACHABLE };
}
