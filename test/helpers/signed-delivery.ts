import { createHmac, randomUUID } from "node:crypto";
import type { WebhookTarget } from "./github-stand-in.js";

export interface SignedDelivery {
  name: string;
  payload: Record<string, unknown>;
  id?: string;
}

/** The `x-hub-signature-256` header GitHub sends with `body` for an App whose webhook secret is `secret`. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** POSTs a webhook to a running app exactly as GitHub does (signed with the App's secret); returns the status. */
export async function postSignedDelivery(url: string, secret: string, delivery: SignedDelivery): Promise<number> {
  const body = JSON.stringify(delivery.payload);
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/test",
      "x-github-event": delivery.name,
      "x-github-delivery": delivery.id ?? randomUUID(),
      "x-hub-signature-256": signature(secret, body),
    },
    body,
  });
  await res.text();
  return res.status;
}

/** The stand-in's webhook target for an app process: a non-2xx answer fails the attempt with its status. */
export function signedWebhookTarget(url: () => string, secret: string): WebhookTarget {
  return async ({ id, name, payload }) => {
    const status = await postSignedDelivery(url(), secret, { id, name, payload });
    if (status < 200 || status >= 300) throw Object.assign(new Error(`the app answered ${status}`), { status });
  };
}
