import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { Refusals } from "../../refusals/refusals.js";
import { claimedDelivery } from "./claimed-delivery.js";

/** A node middleware as @octokit/webhooks types it (`next` included). */
type NodeMiddleware = (request: IncomingMessage, response: ServerResponse, next?: Function) => Promise<boolean>;

/** What @octokit/webhooks' middleware checks before it verifies a delivery: it answers the rest itself. */
const JSON_CONTENT_TYPE = /^\s*(application\/json)\s*(?:;|$)/u;
const REQUIRED = ["x-github-event", "x-hub-signature-256", "x-github-delivery"] as const;
/** A JSON text that is an object starts with "{" after JSON's whitespace; whether it parses is the middleware's to say. */
const OBJECT_START = /^[ \t\n\r]*\{/;

/**
 * Refuses, with 400 and the reason, a correctly signed delivery that no handler could read: an empty
 * `x-github-event`, or a body that is JSON but not an object (`null`, `[]`, `"x"`, `1`, `true`). Handed on,
 * @octokit/webhooks answers `null` 500 ("Event name not passed") and a number or a string never (a 202 when
 * its timer ends, and an unhandled rejection). The check runs on the body limitWebhookBody read; the
 * signature is verified only for a body that fails it, so a good delivery costs a regular expression. An
 * unsigned one is left to the middleware, which refuses it for its signature as before. Kept as a
 * `webhook_invalid` refusal, like every other request that is no valid delivery.
 */
export function refuseMalformedDeliveries(
  middleware: NodeMiddleware,
  options: { verify: (body: string, signature: string) => Promise<boolean>; log: Logger; refusals?: Refusals },
): NodeMiddleware {
  return async (request, response, next) => {
    const body = (request as IncomingMessage & { body?: unknown }).body;
    const problem = typeof body === "string" ? malformation(request, body) : undefined;
    if (!problem || !(await signed(request, body as string, options.verify)))
      return middleware(request, response, next);
    options.log.warn(
      { deliveryId: request.headers["x-github-delivery"], problem },
      "malformed webhook delivery refused",
    );
    void options.refusals?.refuse({
      kind: "webhook_invalid",
      reason: `webhook request refused (400, ${claimedDelivery(request)}): ${problem}`,
    });
    const text = JSON.stringify({ error: problem });
    response.writeHead(400, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
    response.end(text);
    return true;
  };
}

/** What makes a delivery the middleware would verify unreadable; undefined for one it may go on with. */
function malformation(request: IncomingMessage, body: string): string | undefined {
  const contentType = request.headers["content-type"];
  if (typeof contentType !== "string" || !JSON_CONTENT_TYPE.test(contentType)) return undefined;
  if (REQUIRED.some((name) => request.headers[name] === undefined)) return undefined;
  if (request.headers["x-github-event"] === "") return "the x-github-event header is empty";
  if (!OBJECT_START.test(body)) return "a webhook delivery's body is a JSON object, and this one is not";
  return undefined;
}

async function signed(
  request: IncomingMessage,
  body: string,
  verify: (body: string, signature: string) => Promise<boolean>,
): Promise<boolean> {
  const signature = request.headers["x-hub-signature-256"];
  if (typeof signature !== "string") return false;
  return verify(body, signature).catch(() => false);
}
