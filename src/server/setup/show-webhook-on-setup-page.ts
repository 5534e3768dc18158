import type { IncomingMessage, ServerResponse } from "node:http";
import { OAUTH_CALLBACK_PATH } from "../../domain/oauth-callback-path.js";
import type { SetupWebhook } from "./resolve-setup-webhook.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => boolean | void | Promise<boolean | void>;

const VIA: Record<string, string> = {
  proxy: "the webhook proxy channel of WEBHOOK_PROXY_URL; this app forwards from it to its webhook path",
  public: "PUBLIC_URL and this app's webhook path",
  "new-channel": "a smee.io channel made for this setup; this app forwards from it to its webhook path",
};

/**
 * Probot's registration page (GET /probot), with the manifest's webhook URL one GitHub can reach
 * (see resolveSetupWebhook) in place of the page's own address, and a line saying which URL GitHub
 * will call — or why webhooks will not arrive and what to set. The manifest also asks for the run view's
 * sign-in callback (PUBLIC_URL, else the page's own address, plus /oauth/callback).
 */
export function showWebhookOnSetupPage(
  inner: Handler,
  hook: SetupWebhook,
  webhookPath: string,
  publicUrl?: string,
): Handler {
  return (req, res) => {
    if (req.method === "GET" && (req.url ?? "").split("?")[0] === "/probot") {
      const end = res.end;
      res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
        const body = typeof chunk === "string" ? withWebhook(chunk, hook, webhookPath, publicUrl) : chunk;
        return (end as (...args: unknown[]) => ServerResponse).call(this, body, ...rest);
      } as typeof res.end;
    }
    return inner(req, res);
  };
}

/**
 * The page with the manifest's `hook_attributes.url` set, its OAuth `callback_urls` (sign-in for the run
 * view; no OAuth prompt on install), and the webhook line added above the form.
 */
export function withWebhook(html: string, hook: SetupWebhook, webhookPath: string, publicUrl?: string): string {
  let url = hook.url;
  // Probot puts the JSON in a single-quoted attribute unescaped: it ends where the button's text begins.
  const manifestValue = /(id="manifest" value=')([\s\S]*?)('\s*>\s*Register)/;
  const page = html.replace(manifestValue, (_m, open: string, value: string, close: string) => {
    const manifest = JSON.parse(value) as Record<string, unknown> & {
      redirect_url?: string;
      hook_attributes?: Record<string, unknown>;
    };
    // Probot's redirect_url is the page's own address plus /probot/setup.
    const base = String(manifest.redirect_url ?? "").replace(/\/probot\/setup$/, "");
    url ??= `${base}${webhookPath}`;
    manifest.hook_attributes = { ...manifest.hook_attributes, url };
    // The browser follows this one (not GitHub's servers), so the page's own address works too.
    const site = publicUrl ?? base;
    if (site) {
      manifest.callback_urls = [`${site}${OAUTH_CALLBACK_PATH}`];
      manifest.request_oauth_on_install = false;
    }
    return `${open}${escapeAttribute(JSON.stringify(manifest))}${close}`;
  });
  const line =
    hook.url !== undefined
      ? `<p id="webhook-url">GitHub will send the App's webhooks to <code>${escapeHtml(hook.url)}</code> (${VIA[hook.via]}).</p>`
      : `<p id="webhook-url" class="flash flash-warn"><strong>Webhooks will not arrive.</strong> ${escapeHtml(hook.problem)}. The App would be registered with <code>${escapeHtml(url ?? webhookPath)}</code>.</p>`;
  return page.replace(/<form action="/, `${line}\n          <br>\n          <form action="`);
}

/** For the page's single-quoted attribute: the browser posts the JSON as it was. */
function escapeAttribute(text: string): string {
  return text.replace(/[&'<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
