// The webhook room: what stands between a webhook request and the intake. This file caps the body
// (GitHub's 25 MB, and a budget for the bodies arriving together) as it is read (webhook-body-reader);
// malformed deliveries are refused before @octokit/webhooks verifies them (refuse-malformed-deliveries),
// the ones it refuses are kept as refusals (record-invalid-deliveries), each named by the delivery it
// claims to be (claimed-delivery). Where GitHub sends them: webhook-address, and start-webhook-proxy,
// which forwards a smee.io channel's deliveries to the webhook path. no-mistakes-probot (above) mounts them.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Refusals } from "../../refusals/refusals.js";
import { claimedDelivery } from "./claimed-delivery.js";
import { WebhookBodyReader, type UnreadBody } from "./webhook-body-reader.js";
import { webhookPathMatcher } from "../../domain/webhook-path-matcher.js";

/** GitHub caps webhook deliveries at 25 MB: nothing larger can be a real one. */
export const MAX_WEBHOOK_BODY_BYTES = 25 * 1024 * 1024;

/**
 * All webhook bodies being read at once, together: one of the largest, and a MiB of the usual small ones
 * (a few KB each) beside it. Without it, ten bodies streamed at once could each hold nearly 25 MB before
 * any is refused; with it, what a flood leaves in memory is this budget and the dropped bytes the garbage
 * collector has not freed yet.
 */
export const MAX_WEBHOOK_BODIES_BUFFERED_BYTES = MAX_WEBHOOK_BODY_BYTES + 1024 * 1024;

/** How long a refused connection stays half-closed (unread) for the client to take its answer and hang up. */
const LINGER_MS = 1_000;

/** A node middleware as @octokit/webhooks types it (`next` included). */
type NodeMiddleware = (request: IncomingMessage, response: ServerResponse, next?: Function) => Promise<boolean>;

/**
 * Puts a size cap in front of @octokit/webhooks' node middleware, which reads the whole body before it
 * checks the signature. A POST to the webhook path is read here first: a `content-length` over the cap
 * is refused at once (413), unread; any other body is counted as it arrives and refused (413) the moment
 * it passes the cap; and while bodies arriving together pass their shared budget, the largest is refused
 * (503). A refused body stops being read, what was read of it is dropped, and its connection is closed.
 * A body within the caps goes on to the middleware as `request.body` (decoded as the middleware decodes
 * it), which then checks the signature and answers exactly as it does unwrapped.
 */
export function limitWebhookBody(
  middleware: NodeMiddleware,
  options: { path: string; log: Logger; refusals?: Refusals; maxBytes?: number; maxBufferedBytes?: number },
): NodeMiddleware {
  const {
    log,
    refusals,
    maxBytes = MAX_WEBHOOK_BODY_BYTES,
    maxBufferedBytes = Math.max(MAX_WEBHOOK_BODIES_BUFFERED_BYTES, maxBytes),
  } = options;
  const isWebhookPath = webhookPathMatcher(options.path);
  const reader = new WebhookBodyReader({ maxBytes, maxBufferedBytes });
  const decoder = new TextDecoder("utf-8", { fatal: false });
  return async (request, response, next) => {
    if (request.method !== "POST" || !isWebhookPath(request.url)) return middleware(request, response, next);
    const body = await reader.read(request);
    if (!Buffer.isBuffer(body)) {
      if (!("gone" in body)) refuse(request, response, body, { maxBytes, maxBufferedBytes }, log, refusals);
      return true;
    }
    (request as IncomingMessage & { body?: string }).body = decoder.decode(body);
    return middleware(request, response, next);
  };
}

/**
 * 413 (or 503), said once in the log (size and delivery id, never the body) and recorded as a refusal
 * (counted at once, its row written after the answer: see Refusals). Nothing more is read: once
 * the answer is out, the connection is half-closed, so the client has the answer before it sees the end,
 * and dropped a moment later. (Closing outright with the client's bytes unread would send a reset that
 * can overtake the answer.)
 */
function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  unread: Exclude<UnreadBody, { gone: true }>,
  limits: { maxBytes: number; maxBufferedBytes: number },
  log: Logger,
  refusals: Refusals | undefined,
): void {
  const deliveryId = request.headers["x-github-delivery"];
  let status: number;
  let error: string;
  if ("tooLarge" in unread) {
    [status, error] = [
      413,
      `Payload too large: a webhook body may be at most ${limits.maxBytes} bytes (GitHub sends at most 25 MB)`,
    ];
    log.warn(
      { deliveryId, ...unread.tooLarge, maxBytes: limits.maxBytes, status },
      "webhook body over the size cap refused",
    );
    const size =
      "contentLength" in unread.tooLarge
        ? `a content-length of ${unread.tooLarge.contentLength} bytes`
        : `more than ${limits.maxBytes} bytes`;
    void refusals?.refuse({
      kind: "webhook_body_too_large",
      reason: `webhook body refused (413, ${claimedDelivery(request)}): ${size}, over the cap of ${limits.maxBytes}; GitHub sends at most 25 MB, so the sender is not GitHub`,
    });
  } else {
    [status, error] = [503, "Too many large webhook bodies arriving at once: this one was dropped; send it again"];
    log.warn(
      { deliveryId, ...unread.crowded, maxBufferedBytes: limits.maxBufferedBytes, status },
      "webhook body dropped: too many large bodies arriving at once",
    );
    void refusals?.refuse({
      kind: "webhook_bodies_crowded",
      reason: `webhook body dropped (503, ${claimedDelivery(request)}) after ${unread.crowded.receivedBytes} bytes: the bodies arriving together passed ${limits.maxBufferedBytes} bytes and it was the largest; GitHub redelivers a real one`,
    });
  }
  const text = JSON.stringify({ error });
  response.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
  response.end(text, () => {
    request.pause(); // Node's server resumes a request it sees unread once the answer is out, to skip its body
    const socket = request.socket;
    socket.end();
    const drop = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once("close", () => clearTimeout(drop));
  });
}
