import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { webhookPathMatcher } from "../domain/webhook-path-matcher.js";
import type { Metrics } from "./metrics.js";

/**
 * Events counted under their own name; any other `x-github-event` (the header is not yet verified when a
 * delivery is refused) is counted as `other`, so a sender cannot mint label values.
 */
const EVENTS = new Set([
  "pull_request",
  "issue_comment",
  "pull_request_review_comment",
  "check_run",
  "check_suite",
  "ping",
  "installation",
  "installation_repositories",
  "push",
]);

/**
 * Times and counts every POST to the webhook path on `server`: `webhook_ack_seconds` from the request's
 * start to its answer written, and `webhook_deliveries_total{event,outcome}` by the answer — 2xx
 * `accepted` when the intake journaled the delivery during the request, else `ignored`; 4xx `rejected`;
 * 5xx `failed` (refusals_total is counted where the refusal happens, with its row: src/refusals). Its listener goes
 * first, before the app's, so the clock starts when the request does. Returns a function that stops
 * observing.
 */
export function observeWebhookRequests(server: Server, metrics: Metrics, options: { path: string }): () => void {
  const isWebhookPath = webhookPathMatcher(options.path);
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "POST" || !isWebhookPath(req.url)) return;
    const stopTimer = metrics.webhookAckSeconds.startTimer();
    const header = req.headers["x-github-event"];
    const event = typeof header === "string" && EVENTS.has(header) ? header : "other";
    const id = req.headers["x-github-delivery"];
    const deliveryId = typeof id === "string" && id !== "" ? id : undefined;
    if (deliveryId) metrics.deliveries.start(deliveryId);
    const done = () => {
      res.off("finish", done).off("close", done);
      const accepted = deliveryId ? metrics.deliveries.finish(deliveryId) : false;
      if (!res.writableFinished) return; // the client left before an answer: nothing was acknowledged
      stopTimer();
      metrics.webhookDeliveries.inc({ event, outcome: outcomeOf(res.statusCode, accepted) });
    };
    res.on("finish", done).on("close", done);
  };
  server.prependListener("request", onRequest);
  return () => void server.off("request", onRequest);
}

function outcomeOf(status: number, accepted: boolean): string {
  if (status >= 500) return "failed";
  if (status >= 400) return "rejected";
  return accepted ? "accepted" : "ignored";
}
