import { printableHost } from "./printable-host.js";

export interface BannerInfo {
  version: string;
  mode: "app" | "setup";
  host: string;
  port: number;
  webhookPath: string;
  /** Where GitHub delivers (a smee.io channel, or PUBLIC_URL plus the path), when known. */
  webhookUrl?: string;
}

/**
 * The one line logged when the server listens, naming the URLs that answer: the webhook path (and where
 * GitHub delivers to it), /health, and the root page. In setup mode the root page is the guarded setup
 * flow, whose URL with its one-time code is logged on its own line.
 */
export function bannerLine(info: BannerInfo): string {
  const base = `http://${printableHost(info.host)}:${info.port}`;
  if (info.mode === "setup")
    return `no-mistakes ${info.version} listening at ${base} in setup mode — health ${base}/health; register the GitHub App at the setup URL below`;
  const local = `${base}${info.webhookPath}`;
  const webhooks = info.webhookUrl && info.webhookUrl !== local ? `${info.webhookUrl} → ${local}` : local;
  return `no-mistakes ${info.version} listening — webhooks ${webhooks}, health ${base}/health, home ${base}/`;
}
