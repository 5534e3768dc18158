import type { IncomingMessage, ServerResponse } from "node:http";

export interface RootPageInfo {
  name: string;
  version: string;
  /** /health's status: ok, starting or degraded. */
  status: () => string;
  /** The GitHub web host, for the link to the App's settings (github.com, or GHE_HOST). */
  github: { protocol: string; host: string };
  webhookPath: string;
  /** Where GitHub sends the webhooks, when the settings say (WEBHOOK_PROXY_URL or PUBLIC_URL). */
  webhookUrl?: string;
}

/**
 * The page's headers: it runs nothing and loads nothing (no script, style or image of any kind), is framed
 * nowhere and sends no referrer with its links.
 */
const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/** GET / in app mode: a small page with the app's name, its status and where to go next. */
export function createRootPage(info: RootPageInfo) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if ((req.method !== "GET" && req.method !== "HEAD") || (req.url ?? "/").split("?")[0] !== "/") return false;
    const status = info.status();
    const settings = `${info.github.protocol}://${info.github.host}/settings/apps`;
    const webhooks = info.webhookUrl
      ? `GitHub sends them to <code>${escapeHtml(info.webhookUrl)}</code>; this app answers them at <code>${escapeHtml(info.webhookPath)}</code>.`
      : `This app answers them at <code>${escapeHtml(info.webhookPath)}</code> (the App's webhook URL on GitHub must reach it).`;
    const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(info.name)}</title></head>
<body>
<h1>${escapeHtml(info.name)} <small>v${escapeHtml(info.version)}</small></h1>
<p>Status: <strong id="status">${escapeHtml(status)}</strong> (<a href="/health">/health</a>, <a href="/ready">/ready</a>)</p>
<p>Webhooks: ${webhooks}</p>
<h2>Where next</h2>
<ul>
<li>Install the App on repositories, or change its permissions and webhook URL: <a href="${settings}">the App's settings on GitHub</a> (Settings → Developer settings → GitHub Apps; an organization's Apps are under its settings).</li>
<li>What the bot did in each pull request — every turn, its session and cost, each finding's history: <a href="/repos">the run view</a> (sign in with GitHub).</li>
<li>Ask for a review in a pull request: comment <code>/no-mistakes help</code>.</li>
<li>Settings, commands and operation: the README of the no-mistakes repository (Quick start, Configuration, Security).</li>
</ul>
</body>
</html>
`;
    res.writeHead(200, HEADERS).end(req.method === "HEAD" ? undefined : html);
    return true;
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
