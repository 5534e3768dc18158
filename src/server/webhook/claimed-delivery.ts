import type { IncomingMessage } from "node:http";

/** What a GitHub delivery id looks like (a UUID); anything else a sender put there is not repeated. */
const DELIVERY_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The delivery a refused webhook request claims to be, for a refusal's reason: `delivery <id>` when its
 * `x-github-delivery` looks like GitHub's (to find it in the App's delivery log), else `no delivery id`.
 * The header is not verified — a refused request never is — so nothing else of it is written.
 */
export function claimedDelivery(request: IncomingMessage): string {
  const id = request.headers["x-github-delivery"];
  return typeof id === "string" && DELIVERY_ID.test(id) ? `delivery ${id}` : "no delivery id";
}
