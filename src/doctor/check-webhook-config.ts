import type { EnvConfig } from "../config/env/env-config.js";
import type { AppSetup } from "../github/read-app-setup.js";
import { webhookAddress } from "../config/env/webhook-address.js";
import { fail, pass, type DoctorCheck } from "./doctor-check.js";

const LOCAL = /^(localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0)$/i;

/**
 * The App's webhook settings against this app's: the URL reaches WEBHOOK_PATH (it is WEBHOOK_PROXY_URL,
 * or PUBLIC_URL plus the path, or at least a public URL ending in the path), JSON content, a secret.
 */
export function checkWebhookConfig(
  hook: AppSetup["hook"],
  config: Pick<EnvConfig, "webhookPath" | "webhookProxyUrl" | "publicUrl">,
  settingsUrl: string,
): DoctorCheck[] {
  return [
    checkUrl(hook.url, config, settingsUrl),
    checkContentType(hook.contentType, settingsUrl),
    checkSecret(hook.secretSet, settingsUrl),
  ];
}

function checkUrl(
  url: string | undefined,
  config: Pick<EnvConfig, "webhookPath" | "webhookProxyUrl" | "publicUrl">,
  settingsUrl: string,
): DoctorCheck {
  const name = "webhook URL";
  const expected = webhookAddress(config)?.url;
  const setTo = (target: string) => `set the Webhook URL at ${settingsUrl} to ${target}`;
  if (!url)
    return fail(
      name,
      "the App has no webhook URL",
      setTo(expected ?? `https://<this app's public address>${config.webhookPath}`),
    );
  if (expected) {
    if (url === expected) return pass(name, url);
    return fail(name, `${url} is not where this app listens (${expected})`, setTo(expected));
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail(name, `"${url}" is not a URL`, setTo(`https://<this app's public address>${config.webhookPath}`));
  }
  if (parsed.pathname !== config.webhookPath)
    return fail(
      name,
      `${url} does not end in WEBHOOK_PATH (${config.webhookPath})`,
      `${setTo(`${parsed.origin}${config.webhookPath}`)}, or set PUBLIC_URL (or WEBHOOK_PROXY_URL) here`,
    );
  if (LOCAL.test(parsed.hostname))
    return fail(
      name,
      `${url} is this machine's address, which GitHub cannot reach`,
      "use a smee.io channel (https://smee.io/new) as the Webhook URL and set WEBHOOK_PROXY_URL to it, or a public URL and PUBLIC_URL",
    );
  return pass(name, url);
}

function checkContentType(contentType: string | undefined, settingsUrl: string): DoctorCheck {
  if (contentType === "json") return pass("webhook content type", "json");
  return fail(
    "webhook content type",
    `${contentType ?? "unset"}; this app reads JSON deliveries`,
    `set the Content type at ${settingsUrl} to application/json`,
  );
}

function checkSecret(secretSet: boolean, settingsUrl: string): DoctorCheck {
  if (secretSet) return pass("webhook secret", "set");
  return fail(
    "webhook secret",
    "the App has no webhook secret, so deliveries cannot be verified",
    `enter WEBHOOK_SECRET's value as the Webhook secret at ${settingsUrl}`,
  );
}
