import type { Logger } from "pino";

export interface WebhookProxy {
  stop(): Promise<void>;
}

/**
 * Forwards the deliveries of a webhook proxy channel (WEBHOOK_PROXY_URL, smee.io's protocol: an
 * EventSource whose messages are a delivery's headers and body) to this app's own webhook path. A
 * channel that cannot be reached is logged at error; the client keeps reconnecting.
 */
export async function startWebhookProxy(options: {
  source: string;
  host: string;
  port: number;
  webhookPath: string;
  log: Logger;
}): Promise<WebhookProxy> {
  const log = options.log.child({ name: "webhook-proxy" });
  const target = `http://${loopbackFor(options.host)}:${options.port}${options.webhookPath}`;
  const { SmeeClient } = await import("smee-client"); // loaded only with WEBHOOK_PROXY_URL
  let failing = false;
  const client = new SmeeClient({
    source: options.source,
    target,
    logger: {
      info: (message: string) => {
        if (message.startsWith("Connected to")) failing = false;
        log.info({ source: options.source }, message);
      },
      // The client reconnects every few seconds while the channel is down: one error line per outage.
      error: (message: unknown, error?: unknown) => {
        const text = typeof message === "string" ? message : "webhook proxy error";
        const fields = { err: error ?? message, source: options.source };
        if (failing) log.debug(fields, text);
        else log.error(fields, text);
        failing = true;
      },
    },
  });
  try {
    await client.start();
    log.info({ source: options.source, target }, "webhook proxy: forwarding the channel's deliveries to this app");
  } catch (error) {
    log.error(
      { err: error, source: options.source },
      "webhook proxy: cannot connect to WEBHOOK_PROXY_URL; deliveries sent there do not reach this app until it connects (check the URL, or open https://smee.io/new for a new channel)",
    );
  }
  return { stop: () => client.stop() };
}

/** An address of this machine the server listens on: a wildcard bind is reached through loopback. */
function loopbackFor(host: string): string {
  if (host === "" || host === "0.0.0.0") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
