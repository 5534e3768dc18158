/** The URL GitHub sends webhooks to, and how it reaches this app. */
export interface WebhookAddress {
  url: string;
  /** `proxy`: a smee.io channel the app forwards from (WEBHOOK_PROXY_URL); `public`: PUBLIC_URL plus the webhook path. */
  via: "proxy" | "public";
}

/** Where GitHub can deliver webhooks, from the settings; undefined when neither WEBHOOK_PROXY_URL nor PUBLIC_URL is set. */
export function webhookAddress(config: {
  webhookProxyUrl?: string;
  publicUrl?: string;
  webhookPath: string;
}): WebhookAddress | undefined {
  if (config.webhookProxyUrl) return { url: config.webhookProxyUrl, via: "proxy" };
  if (config.publicUrl) return { url: `${config.publicUrl}${config.webhookPath}`, via: "public" };
  return undefined;
}
