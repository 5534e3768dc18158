import type { IncomingMessage, ServerResponse } from "node:http";
import type { Refusals } from "../../refusals/refusals.js";
import { claimedDelivery } from "./claimed-delivery.js";
import { webhookPathMatcher } from "../../domain/webhook-path-matcher.js";

/** A node middleware as @octokit/webhooks types it (`next` included). */
type NodeMiddleware = (request: IncomingMessage, response: ServerResponse, next?: Function) => Promise<boolean>;

/** The headers @octokit/webhooks' middleware requires of a delivery (400 without one). */
const REQUIRED = ["x-github-event", "x-hub-signature-256", "x-github-delivery"] as const;

/**
 * Records a POST to the webhook path that @octokit/webhooks' middleware refused as no valid delivery — 415
 * (not JSON), 400 (a required header missing, a signature that does not match WEBHOOK_SECRET, a body that
 * is not JSON) — as a `webhook_invalid` refusal, once the middleware has answered. Refusals counts it and
 * keeps at most one row a minute for all of them, after the answer: a flood of unsigned posts costs a
 * counter and a few fields, never an insert each.
 */
export function recordInvalidDeliveries(
  middleware: NodeMiddleware,
  options: { path: string; refusals: Refusals },
): NodeMiddleware {
  const isWebhookPath = webhookPathMatcher(options.path);
  return async (request, response, next) => {
    const handled = await middleware(request, response, next);
    if (handled && request.method === "POST" && isWebhookPath(request.url)) {
      const why = invalidity(request, response.statusCode);
      if (why)
        void options.refusals.refuse({
          kind: "webhook_invalid",
          reason: `webhook request refused (${response.statusCode}, ${claimedDelivery(request)}): ${why}`,
        });
    }
    return handled;
  };
}

/** Why the middleware refused the request, from its status and the request's headers; undefined when it did not. */
function invalidity(request: IncomingMessage, status: number): string | undefined {
  if (status === 415) return "its content-type is not application/json";
  if (status !== 400) return undefined;
  const missing = REQUIRED.filter((name) => request.headers[name] === undefined);
  if (missing.length > 0) return `required headers missing: ${missing.join(", ")}`;
  return "its signature does not match WEBHOOK_SECRET, or its body is not JSON: the App's webhook secret and WEBHOOK_SECRET differ, or the sender is not GitHub";
}
